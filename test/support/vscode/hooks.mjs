// Resolves `vscode` to the fake beside this file (through the rest of the chain, so tsx loads it as TypeScript).
const fake = new URL('./fake.ts', import.meta.url).href;
export async function resolve(specifier, context, next) {
  return next(specifier === 'vscode' ? fake : specifier, context);
}
