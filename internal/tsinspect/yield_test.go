package tsinspect

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/beeuni/beeuni-lsp/internal/vfs"
)

// Each InspectAll worker calls Options.Yield before it inspects a module
// the cache cannot answer, and no module is inspected while Yield holds its
// worker back; cached results do not wait.
func TestInspectAllYieldsBeforeEachModule(t *testing.T) {
	mem := vfs.NewMem()
	var modules []string
	for i := 0; i < 6; i++ {
		p := fmt.Sprintf("/r/tools/t%d.ts", i)
		mem.WriteFile(p, []byte(fmt.Sprintf("export default { description: 'tool %d', parameters: { type: 'object' }, execute() {} }\n", i)))
		modules = append(modules, p)
	}
	var yields atomic.Int32
	release := make(chan struct{})
	held := make(chan struct{}, len(modules))
	in := New(mem, Options{Parallelism: 2, Yield: func(ctx context.Context) {
		if yields.Add(1) == 1 {
			held <- struct{}{}
			<-release
		}
	}})
	done := make(chan []*Result)
	go func() { done <- in.InspectAll(context.Background(), "/r", modules) }()
	select {
	case <-held:
	case rs := <-done:
		t.Fatalf("InspectAll inspected %d modules without calling Yield", len(rs))
	}
	select {
	case <-done:
		t.Fatal("InspectAll finished while a worker was held back by Yield")
	default:
	}
	close(release)
	rs := <-done
	if got := int(yields.Load()); got != len(modules) {
		t.Errorf("Yield called %d times for %d modules", got, len(modules))
	}
	for i, r := range rs {
		if r == nil || !r.Loads {
			t.Errorf("module %d: %+v, want a loading module", i, r)
		}
	}
	in.InspectAll(context.Background(), "/r", modules)
	if got := int(yields.Load()); got != len(modules) {
		t.Errorf("Yield called %d times after a second pass answered from the cache, want %d as after the first", got, len(modules))
	}
}
