package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"golang.org/x/term"

	"github.com/beeuni/beeuni-lsp/internal/version"
)

const usage = `usage: beeuni-lsp [command] [flags]

Commands:
  serve                        speak the Language Server Protocol on stdio (the default)
  validate [flags] [PATH]      check beeuni.yaml, its imports and tool modules
                               (--format text|json|github|sarif, --json, --color auto|always|never,
                               --max-warnings N, --no-inspect, --runtime bun)
  tools ls [--json] [PATH]     list the tools a session gets
  tools eject NAME [--force] [PATH]
                               copy a Beeuni tool into tools/NAME.ts and point the manifest at it
  version                      print the version
  help                         print this help

PATH is the project's folder or its beeuni.yaml; without it, the nearest
beeuni.yaml in the working folder or above. ` + "`beeuni-lsp COMMAND --help`" + ` prints a
command's flags and exit codes (0: fine, 1: findings or a refusal, 2: it
cannot run).
`

// env is what a command may touch: its streams and its working folder.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	dir    string
	// terminal is set when stdin is a terminal: a person, not an editor,
	// started the process.
	terminal bool
	// stdoutTerminal is set when stdout is a terminal: validate's text
	// output then shows each finding's source line (--color auto).
	stdoutTerminal bool
	// getenv reads the process's environment (NO_COLOR, GitHub Actions'
	// variables); nil reads an empty environment.
	getenv func(string) string
}

// variable returns the environment variable key, "" when unset.
func (e env) variable(key string) string {
	if e.getenv == nil {
		return ""
	}
	return e.getenv(key)
}

func main() {
	// SIGTERM is how editors stop a server: like Ctrl-C, it ends Run, which
	// returns what the protocol asks for.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "beeuni-lsp: %v\n", err)
		os.Exit(2)
	}
	e := env{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, dir: physicalDir(wd),
		terminal: isTerminal(os.Stdin), stdoutTerminal: isTerminal(os.Stdout), getenv: os.Getenv,
	}
	os.Exit(run(ctx, e, os.Args[1:]))
}

// physicalDir returns the working folder wd with its symbolic links
// resolved, as the kernel sees it. os.Getwd returns $PWD, the path the shell
// took through links: searched upward, it misses a project whose
// beeuni.yaml is above the link's target, which git finds (it climbs
// getcwd(3)'s path), and a relative PATH's ".." would be read lexically from
// the link, not from where the kernel resolves it. wd is kept when it
// cannot be resolved.
func physicalDir(wd string) string {
	if real, err := filepath.EvalSymlinks(wd); err == nil {
		return real
	}
	return wd
}

// isTerminal reports whether f is a terminal: not a pipe, a socket, a file,
// or another character device such as /dev/null. The descriptor is read
// through SyscallConn, which leaves its blocking mode as it is (File.Fd
// would make a descriptor shared with the parent blocking).
func isTerminal(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	terminal := false
	if err := rc.Control(func(fd uintptr) { terminal = term.IsTerminal(int(fd)) }); err != nil {
		return false
	}
	return terminal
}

// terminalNotice is what `beeuni-lsp` with no arguments prints to stderr
// when a person starts it from a terminal, instead of waiting silently.
const terminalNotice = "beeuni-lsp: speaking the Language Server Protocol on stdin/stdout for an editor; " +
	"run `beeuni-lsp help` for the command line (validate, tools ls, tools eject), Ctrl-C to quit\n"

// run dispatches a command line and returns the process exit code.
func run(ctx context.Context, e env, args []string) int {
	if len(args) == 0 {
		return runServe(ctx, e, nil)
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, e, args[1:])
	case "validate":
		return runValidate(ctx, e, args[1:])
	case "tools":
		if len(args) < 2 {
			return usageError(e, "tools needs a subcommand: ls or eject")
		}
		switch args[1] {
		case "ls":
			return runToolsLs(ctx, e, args[2:])
		case "eject":
			return runToolsEject(ctx, e, args[2:])
		case "--help", "-h", "help":
			fmt.Fprint(e.stdout, toolsLsCommand.help()+"\n"+toolsEjectCommand.help())
			return 0
		}
		return usageError(e, fmt.Sprintf("unknown tools subcommand %q", args[1]))
	case "version", "--version", "-v":
		if _, help, err := versionCommand.parse(args[1:]); help {
			fmt.Fprint(e.stdout, versionCommand.help())
			return 0
		} else if err != nil {
			return versionCommand.usageError(e, err.Error())
		}
		fmt.Fprintf(e.stdout, "beeuni-lsp %s\n", version.String())
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(e.stdout, usage)
		return 0
	}
	return usageError(e, fmt.Sprintf("unknown command %q", args[0]))
}

// usageError prints a reason and the top-level usage to stderr and
// returns exit code 2: for a command line that names no command.
func usageError(e env, reason string) int {
	fmt.Fprintf(e.stderr, "beeuni-lsp: %s\n\n%s", reason, usage)
	return 2
}
