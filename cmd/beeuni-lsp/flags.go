package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/ruledoc"
)

// command describes one command line: its flags, what --help prints and
// how many positional arguments it takes.
type command struct {
	name     string // as typed: "validate", "tools ls"
	args     string // the positional arguments of the synopsis: "[PATH]"
	about    string // what it does, a paragraph
	flags    []flagDoc
	exits    [3]string // what exit codes 0, 1 and 2 mean
	min, max int       // positional arguments
}

// flagDoc is one flag as --help shows it; value is the placeholder of a
// flag that takes one ("" for a switch).
type flagDoc struct {
	name, value, usage string
}

// options holds every flag a command may take; each command registers
// only its own.
type options struct {
	json        bool
	stdio       bool
	noInspect   bool
	force       bool
	format      string
	color       string
	runtime     string
	maxWarnings int
	agent       string
	positional  []string
}

// pathArg is the synopsis and the help text of the optional PATH.
const pathArg = "PATH is the project's folder or its beeuni.yaml; without PATH, the " +
	"nearest beeuni.yaml in the working folder or a folder above it (as git finds .git: from the working folder with its symbolic links resolved)."

const cannotRun = "it cannot run: no beeuni.yaml, an unreadable folder (one line on stderr), or a bad flag or argument (the reason, then this usage)"

var (
	serveCommand = command{
		name: "serve",
		about: "Speaks the Language Server Protocol on stdin and stdout until the client sends exit; " +
			"editors start it (`beeuni-lsp` with no arguments is the same). Trace lines go to stderr.",
		flags: []flagDoc{{"stdio", "", "accepted for the clients that pass it: stdio is the only transport"}},
		exits: [3]string{
			"the client sent shutdown, then exit",
			"the client exited, or the stream ended, without shutdown",
			"a bad flag or argument (the reason, then this usage, on stderr)",
		},
	}
	versionCommand = command{
		name:  "version",
		about: "Prints the version: the release, the module version `go install` fetched, or the commit a checkout was built from.",
		exits: [3]string{"the version printed", "", "a bad flag or argument (the reason, then this usage, on stderr)"},
	}
	validateCommand = command{
		name: "validate", args: "[PATH]", max: 1,
		about: "Checks beeuni.yaml, its imports and its tool modules, and prints one line per finding, " +
			"naming files relative to the working folder (path:line:column: severity: message [code]). " + pathArg,
		flags: []flagDoc{
			{"format", "FORMAT", "text (the default; given explicitly, always one line per finding, as problem matchers read it), json, github (GitHub Actions workflow commands) or sarif (SARIF 2.1.0)"},
			{"json", "", "the same as --format json"},
			{"color", "WHEN", "without --format: auto (the default: on a terminal outside CI, each finding with its source line, a caret under the range, its rule's docs, in colour unless NO_COLOR is set), always (that, also piped), or never (no colour)"},
			{"max-warnings", "N", "exit 1 when there are more than N warnings (default: no limit)"},
			{"no-inspect", "", "skip module inspection (T11 and the modules' own findings)"},
			{"runtime", "bun", "also load each module in Bun (bun on PATH) the way the daemon does, and print its verdict beside the static one; a disagreement exits 1 (text format only)"},
		},
		exits: [3]string{
			"no error, and no more warnings than --max-warnings",
			"at least one error, more warnings than --max-warnings, or (with --runtime) a verdict Bun disagrees with",
			cannotRun,
		},
	}
	toolsLsCommand = command{
		name: "tools ls", args: "[PATH]", max: 1,
		about: "Lists the tools a session gets (name, kind, source), then the listed tools that will not load " +
			"(T6, T11), the invalid entries (T3), the removed Beeuni tools, and the entries it leaves out " +
			"because sessions get no tool from them (T1, T2, T4, T5, T7); with --agent NAME, what agent NAME's model sees. " + pathArg,
		flags: []flagDoc{
			{"json", "", "print one JSON object instead of the table"},
			{"agent", "NAME", "print what agent NAME's model sees instead: each tool's description and parameters, their size, an estimate of tokens"},
		},
		exits: [3]string{
			"the project was read (whatever its findings)",
			"a file of the project does not parse (its syntax errors on stderr, nothing on stdout)",
			cannotRun + "; with --agent, an agent the project does not declare",
		},
	}
	toolsEjectCommand = command{
		name: "tools eject", args: "NAME [PATH]", min: 1, max: 2,
		about: "Copies the Beeuni tool NAME into tools/NAME.ts and points its entry at it, keeping every other " +
			"byte of the manifest; the line ends with `# ejected from beeuni:NAME`. It refuses when tools/NAME.ts " +
			"exists or the entry points to another module. " + pathArg,
		flags: []flagDoc{{"force", "", "overwrite tools/NAME.ts, or repoint an entry that names another module (that module stays on disk, untouched)"}},
		exits: [3]string{
			"ejected",
			"refused or failed, with a one-line reason on stderr; the project is untouched",
			cannotRun,
		},
	}
)

// parse reads args as c's flags and positional arguments, flags anywhere
// (`validate shop --json`), `--` ending them. help is set for -h/--help;
// a bad command line is an error to print with c.usageError.
func (c command) parse(args []string) (opts options, help bool, err error) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	opts.maxWarnings = -1
	for _, f := range c.flags {
		switch f.name {
		case "json":
			fs.BoolVar(&opts.json, f.name, false, f.usage)
		case "stdio":
			fs.BoolVar(&opts.stdio, f.name, false, f.usage)
		case "no-inspect":
			fs.BoolVar(&opts.noInspect, f.name, false, f.usage)
		case "force":
			fs.BoolVar(&opts.force, f.name, false, f.usage)
			fs.BoolVar(&opts.force, "f", false, f.usage)
		case "format":
			fs.StringVar(&opts.format, f.name, "", f.usage)
		case "runtime":
			fs.StringVar(&opts.runtime, f.name, "", f.usage)
		case "color":
			fs.StringVar(&opts.color, f.name, colorAuto, f.usage)
		case "max-warnings":
			fs.IntVar(&opts.maxWarnings, f.name, -1, f.usage)
		case "agent":
			fs.StringVar(&opts.agent, f.name, "", f.usage)
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return opts, true, nil
			}
			return opts, false, fmt.Errorf("%s: %s", c.name, flagError(err))
		}
		rest := fs.Args()
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			opts.positional = append(opts.positional, rest...)
			break
		}
		if len(rest) == 0 {
			break
		}
		opts.positional = append(opts.positional, rest[0])
		args = rest[1:]
	}
	switch opts.color {
	case "", colorAuto, colorAlways, colorNever:
	default:
		return opts, false, fmt.Errorf("%s: --color must be auto, always or never, not %q", c.name, opts.color)
	}
	if opts.maxWarnings < -1 {
		return opts, false, fmt.Errorf("%s: --max-warnings must be 0 or more, not %d", c.name, opts.maxWarnings)
	}
	switch n := len(opts.positional); {
	case n > 0 && c.max == 0:
		return opts, false, fmt.Errorf("%s takes no arguments, not %q", c.name, opts.positional[0])
	case n < c.min:
		return opts, false, fmt.Errorf("%s needs %s; see beeuni-lsp %s --help", c.name, c.args, c.name)
	case n > c.max:
		return opts, false, fmt.Errorf("%s takes %s: at most %d argument(s), got %d", c.name, c.args, c.max, n)
	}
	return opts, false, nil
}

// flagError rewrites the flag package's messages in the spelling --help
// uses (`--name`).
func flagError(err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag --" + strings.TrimLeft(name, "-")
	}
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if value, flagName, ok := strings.Cut(rest, " for flag -"); ok {
			flagName, _, _ = strings.Cut(flagName, ":")
			return fmt.Sprintf("invalid value %s for --%s", value, flagName)
		}
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return "--" + name + " needs a value"
	}
	return msg
}

// usageError prints a reason and the command's usage to stderr and
// returns exit code 2.
func (c command) usageError(e env, reason string) int {
	fmt.Fprintf(e.stderr, "beeuni-lsp: %s\n\n%s", reason, c.help())
	return 2
}

// help is what `beeuni-lsp <command> --help` prints.
func (c command) help() string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: beeuni-lsp %s [flags]", c.name)
	if c.args != "" {
		b.WriteString(" " + c.args)
	}
	b.WriteString("\n\n")
	b.WriteString(wrap(c.about, 78))
	b.WriteString("\nFlags:\n")
	rows := make([][2]string, 0, len(c.flags)+1)
	for _, f := range c.flags {
		left := "--" + f.name
		if f.name == "force" {
			left = "-f, --force"
		}
		if f.value != "" {
			left += " " + f.value
		}
		rows = append(rows, [2]string{left, f.usage})
	}
	rows = append(rows, [2]string{"-h, --help", "print this help"})
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, r[0], r[1])
	}
	b.WriteString("\nExit codes:\n")
	for code, what := range c.exits {
		if what != "" {
			fmt.Fprintf(&b, "  %d  %s\n", code, what)
		}
	}
	fmt.Fprintf(&b, "\nRules and their fixes: %s\n", ruledoc.DocURL)
	return b.String()
}

// wrap breaks a paragraph into lines of at most width characters.
func wrap(text string, width int) string {
	var b strings.Builder
	n := 0
	for _, w := range strings.Fields(text) {
		if n > 0 && n+1+len(w) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	b.WriteByte('\n')
	return b.String()
}
