/**
 * `bayes completion bash|zsh|fish`: a shell completion script for the commands and each
 * command's options, read from the commands' own usage texts (so a new option completes as soon
 * as it is documented). Load it with `source <(bayes completion bash)`.
 */
import { UsageError, type CliCommand } from './command.js';

/** The command index (commands.ts passes itself in: this module does not import it, no cycle). */
interface Entry {
  name: string;
  load(): Promise<CliCommand>;
}

const SHELLS = ['bash', 'zsh', 'fish'] as const;
type Shell = (typeof SHELLS)[number];

/** Every long option a usage text documents ("--seed S" → "--seed"), in order, once each. */
export function optionsOf(usage: string): string[] {
  return [...new Set(usage.match(/(?<![\w-])--[a-z][a-z0-9-]*/g) ?? [])];
}

const GLOBAL_OPTIONS = ['--help', '--timeout', '--max-memory', '--quiet'];

interface Completions {
  commands: string[];
  options: Map<string, string[]>;
}

async function completions(commands: readonly Entry[], self: CliCommand): Promise<Completions> {
  const options = new Map<string, string[]>();
  for (const entry of commands) {
    const command = entry.name === self.name ? self : await entry.load();
    options.set(entry.name, [...new Set([...optionsOf(command.usage), ...GLOBAL_OPTIONS])]);
  }
  return { commands: commands.map((c) => c.name), options };
}

function bash({ commands: names, options }: Completions): string {
  const cases = [...options].map(([name, opts]) => `    ${name}) opts="${opts.join(' ')}" ;;`);
  return `# bash completion for bayes (bayes completion bash)
_bayes() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${names.join(' ')} --help --version" -- "$cur"))
    return
  fi
  if [ "$cmd" = completion ]; then
    COMPREPLY=($(compgen -W "${SHELLS.join(' ')}" -- "$cur"))
    return
  fi
  case "$cmd" in
${cases.join('\n')}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _bayes bayes
`;
}

function zsh({ commands: names, options }: Completions): string {
  const cases = [...options].map(([name, opts]) => `    ${name}) opts=(${opts.join(' ')}) ;;`);
  return `#compdef bayes
# zsh completion for bayes (bayes completion zsh)
_bayes() {
  local -a opts
  if (( CURRENT == 2 )); then
    compadd -- ${names.join(' ')} --help --version
    return
  fi
  case "\${words[2]}" in
    completion) compadd -- ${SHELLS.join(' ')}; return ;;
${cases.join('\n')}
  esac
  if [[ "\${words[CURRENT]}" == -* ]]; then
    compadd -- $opts
  else
    _files
  fi
}
compdef _bayes bayes
`;
}

function fish({ commands: names, options }: Completions): string {
  const lines = [
    '# fish completion for bayes (bayes completion fish)',
    'complete -c bayes -f',
    `complete -c bayes -n __fish_use_subcommand -a '${names.join(' ')}'`,
    `complete -c bayes -n '__fish_seen_subcommand_from completion' -a '${SHELLS.join(' ')}'`,
  ];
  for (const [name, opts] of options) {
    for (const opt of opts) lines.push(`complete -c bayes -n '__fish_seen_subcommand_from ${name}' -l ${opt.slice(2)}`);
    if (name !== 'completion') lines.push(`complete -c bayes -n '__fish_seen_subcommand_from ${name}' -F`);
  }
  return lines.join('\n') + '\n';
}

/** The `completion` command for this index of commands. */
export function completionCommand(commands: readonly Entry[]): CliCommand {
  const command: CliCommand = {
    name: 'completion',
    summary: 'print a shell completion script for bash, zsh or fish (commands and their options)',
    usage: `bayes completion bash|zsh|fish

Prints a completion script for the shell's commands and each command's options. Load it now:
  source <(bayes completion bash)          # bash (or put the line in ~/.bashrc)
  source <(bayes completion zsh)           # zsh, after compinit
  bayes completion fish | source           # fish`,
    async run(args, io) {
      const shell = args[0] as Shell | undefined;
      if (args.length !== 1 || !SHELLS.includes(shell!)) throw new UsageError(`name one shell: ${SHELLS.join(', ')}`);
      const c = await completions(commands, command);
      io.out(shell === 'bash' ? bash(c) : shell === 'zsh' ? zsh(c) : fish(c));
      return 0;
    },
  };
  return command;
}
