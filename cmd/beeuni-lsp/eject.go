package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/beeuni/beeuni-lsp/internal/analysis"
	"github.com/beeuni/beeuni-lsp/internal/analysis/edit"
	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// runToolsEject implements `beeuni-lsp tools eject NAME [--force] [PATH]`
// (SPEC section 7): write tools/NAME.ts with the Beeuni source and point the
// manifest at it, printing the spec's block. Exit 0 when done, 1 with one
// line on stderr when it refuses or fails (the project is then untouched),
// 2 on a usage error or when there is no project to read.
func runToolsEject(ctx context.Context, e env, args []string) int {
	opts, help, err := toolsEjectCommand.parse(args)
	if help {
		fmt.Fprint(e.stdout, toolsEjectCommand.help())
		return 0
	}
	if err != nil {
		return toolsEjectCommand.usageError(e, err.Error())
	}
	name, force := opts.positional[0], opts.force
	fsys := vfs.NewDisk()
	p, code := loadProject(ctx, e, fsys, firstOr(opts.positional[1:], ""))
	if code != 0 {
		return code
	}
	// A Beeuni tool the project removed comes back with its entry.
	addedBack := p.Model != nil && slices.Contains(p.Model.Removed, name)
	c, err := edit.Eject(p, fsys, name, force)
	if err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: %s\n", relMessage(e, p.Root, err.Error()))
		return 1
	}
	if err := edit.Apply(ctx, p.Root, c); err != nil {
		fmt.Fprintf(e.stderr, "beeuni-lsp: eject %s failed, nothing changed: %s\n", name, oneLine(relMessage(e, p.Root, err.Error())))
		return 1
	}
	manifest := analysis.ManifestName
	if len(c.Edits) > 0 {
		manifest = p.Rel(c.Edits[0].File)
	}
	fmt.Fprint(e.stdout, ejectReport(name, edit.EjectedPath(name), manifest, c.Kept, addedBack))
	return 0
}

// ejectReport is SPEC section 7's output, with the file names filled in;
// kept, when --force repointed the entry from another module, is that
// module, which stays on disk; addedBack, when the project had removed
// the Beeuni tool, says that the new entry gives sessions the tool again.
func ejectReport(name, module, manifest, kept string, addedBack bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  ✓  Ejected %s\n", name)
	fmt.Fprintf(&b, "  wrote   %s (the Beeuni source, now the project's to change)\n", module)
	fmt.Fprintf(&b, "  set     %s: tools.%s: %s\n", manifest, name, module)
	if addedBack {
		fmt.Fprintf(&b, "  added   %s back: the project had removed this Beeuni tool, and sessions get it again, as %s\n", name, module)
	}
	if kept != "" {
		fmt.Fprintf(&b, "  kept    %s (tools.%s no longer names it; delete it if nothing else imports it)\n", kept, name)
	}
	b.WriteString("\nNext:\n")
	fmt.Fprintf(&b, "  1. Edit %s. Keep the default export: { description, parameters, execute(args, context) }.\n", module)
	b.WriteString("  2. beeuni validate\n")
	fmt.Fprintf(&b, "  3. git add %s %s && git commit -m \"Own the %s tool\"\n", module, manifest, name)
	fmt.Fprintf(&b, "  4. Open a change request: git push origin HEAD && beeuni cr open --title \"Own the %s tool\"\n", name)
	b.WriteString("Sessions load the copy after the change request merges.\n")
	return b.String()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
