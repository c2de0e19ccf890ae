package analysis

import "testing"

// oneGoroutine marks a large differential or scale test that runs on one
// goroutine (the engine starts none): the race detector has nothing to
// find in it and makes it 10 to 15 times slower
// (TestChunkedParseMatchesFullParse: 43 s instead of 3 s), so it
// runs in the plain `go test ./internal/analysis` that scripts/test.sh
// runs after `go test -race ./...`, and is skipped under -race.
func oneGoroutine(t *testing.T) {
	t.Helper()
	if raceDetector {
		t.Skip("one goroutine, nothing for -race to find: runs without it (scripts/test.sh)")
	}
}

// OneGoroutine is oneGoroutine for the tests of package analysis_test.
var OneGoroutine = oneGoroutine
