/**
 * The `bayes.*` settings as the server sees them, read per resource (workspace/configuration
 * with a scopeUri) so a folder can override the user's defaults. Cached until the client says
 * the configuration changed.
 */
import type { Connection } from 'vscode-languageserver/node';
import { DEFAULT_FILE_LIMITS, type FileLimits } from '../language/environment.js';

export interface BayesSettings {
  /** Run the model when its file is saved. */
  runOnSave: boolean;
  run: {
    /** A run still going after this long is stopped with a diagnostic. */
    timeoutSeconds: number;
    /** Heap limit of the run's worker thread; a run that needs more is stopped. */
    memoryMb: number;
  };
  /** Folders besides the workspace that models may read data from. */
  dataRoots: string[];
  /** A file a model names is not read when it is larger (MB). */
  maxFileMb: number;
  archive: {
    /** An archive whose contents expand past this many MB is refused. */
    maxExpandedMb: number;
    /** An archive with more entries is refused. */
    maxEntries: number;
  };
}

const MB = 1024 * 1024;

export const DEFAULT_SETTINGS: BayesSettings = {
  runOnSave: true,
  run: { timeoutSeconds: 120, memoryMb: 2048 },
  dataRoots: [],
  maxFileMb: DEFAULT_FILE_LIMITS.maxFileBytes / MB,
  archive: {
    maxExpandedMb: DEFAULT_FILE_LIMITS.maxArchiveBytes / MB,
    maxEntries: DEFAULT_FILE_LIMITS.maxArchiveEntries,
  },
};

/** The settings' budgets as byte counts. */
export function fileLimitsOf(settings: BayesSettings): FileLimits {
  return {
    maxFileBytes: Math.round(settings.maxFileMb * MB),
    maxArchiveBytes: Math.round(settings.archive.maxExpandedMb * MB),
    maxArchiveEntries: Math.round(settings.archive.maxEntries),
  };
}

/** Fills what the client left out and rejects nonsense (a zero timeout would never run). */
export function normaliseSettings(raw: unknown): BayesSettings {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Partial<BayesSettings> & {
    run?: Partial<BayesSettings['run']>;
    archive?: Partial<BayesSettings['archive']>;
  };
  const positive = (x: unknown, fallback: number) =>
    typeof x === 'number' && Number.isFinite(x) && x > 0 ? x : fallback;
  return {
    runOnSave: typeof r.runOnSave === 'boolean' ? r.runOnSave : DEFAULT_SETTINGS.runOnSave,
    run: {
      timeoutSeconds: positive(r.run?.timeoutSeconds, DEFAULT_SETTINGS.run.timeoutSeconds),
      memoryMb: positive(r.run?.memoryMb, DEFAULT_SETTINGS.run.memoryMb),
    },
    dataRoots: Array.isArray(r.dataRoots) ? r.dataRoots.filter((d): d is string => typeof d === 'string') : [],
    maxFileMb: positive(r.maxFileMb, DEFAULT_SETTINGS.maxFileMb),
    archive: {
      maxExpandedMb: positive(r.archive?.maxExpandedMb, DEFAULT_SETTINGS.archive.maxExpandedMb),
      maxEntries: positive(r.archive?.maxEntries, DEFAULT_SETTINGS.archive.maxEntries),
    },
  };
}

export class SettingsStore {
  private readonly cache = new Map<string, Promise<BayesSettings>>();

  /** `pull` is false when the client cannot answer workspace/configuration: defaults apply. */
  constructor(
    private readonly connection: Connection,
    private readonly pull: () => boolean,
  ) {}

  get(uri: string): Promise<BayesSettings> {
    if (!this.pull()) return Promise.resolve(DEFAULT_SETTINGS);
    let found = this.cache.get(uri);
    if (!found) {
      found = this.connection.workspace
        .getConfiguration({ scopeUri: uri, section: 'bayes' })
        .then(normaliseSettings, () => DEFAULT_SETTINGS);
      this.cache.set(uri, found);
    }
    return found;
  }

  forget(uri?: string): void {
    if (uri) this.cache.delete(uri);
    else this.cache.clear();
  }
}
