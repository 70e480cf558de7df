/**
 * After "Restart Server" the new server knows no run: the models on screen (a visible editor or
 * an open results panel) are run again, so their inlay hints, hovers and panels come back.
 */
export interface OpenModel {
  uri: string;
  languageId: string;
  isDirty?: boolean;
}

/** The models to run again, each once: visible `.bayes` editors and the models of open panels. */
export function modelsToRerun(editors: readonly OpenModel[], panelModels: readonly string[]): string[] {
  const uris = editors.filter((d) => d.languageId === 'bayes').map((d) => d.uri);
  return [...new Set([...uris, ...panelModels])];
}
