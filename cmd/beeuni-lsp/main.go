// Command beeuni-lsp is the language server for beeuni.yaml and a command
// line on the same engine: validate, tools ls, tools eject, version.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/beeuni/beeuni-lsp/internal/version"
)

const usage = `usage: beeuni-lsp [command] [flags]

Commands:
  serve                        speak the Language Server Protocol on stdio (the default)
  validate [--json] [--no-inspect] [--runtime bun] [DIR]
                               check beeuni.yaml, its imports and tool modules
  tools ls [--json] [DIR]      list the tools a session gets
  tools eject NAME [--force] [DIR]
                               copy a Beeuni tool into tools/NAME.ts and point the manifest at it
  version                      print the version
  help                         print this help
`

// env is what a command may touch: its streams and its working folder.
type env struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	dir    string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	wd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "beeuni-lsp: %v\n", err)
		os.Exit(2)
	}
	e := env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, dir: wd}
	os.Exit(run(ctx, e, os.Args[1:]))
}

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
		}
		return usageError(e, fmt.Sprintf("unknown tools subcommand %q", args[1]))
	case "version", "--version", "-v":
		fmt.Fprintf(e.stdout, "beeuni-lsp %s\n", version.Version)
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(e.stdout, usage)
		return 0
	}
	return usageError(e, fmt.Sprintf("unknown command %q", args[0]))
}

// usageError prints a reason and the usage to stderr and returns exit code 2.
func usageError(e env, reason string) int {
	fmt.Fprintf(e.stderr, "beeuni-lsp: %s\n\n%s", reason, usage)
	return 2
}
