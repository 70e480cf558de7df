/** The package version and the engine's build (git commit and date), baked in by esbuild.mjs into dist/cli.cjs. */
declare const __BAYES_VERSION__: string | undefined;
declare const __BAYES_BUILD__: string | undefined;

export const VERSION = typeof __BAYES_VERSION__ === 'string' ? __BAYES_VERSION__ : '0.1.0';
/** "source (not bundled)" when run from the TypeScript sources (tsx). */
export const BUILD = typeof __BAYES_BUILD__ === 'string' ? __BAYES_BUILD__ : 'source (not bundled)';
