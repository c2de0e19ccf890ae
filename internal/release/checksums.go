package release

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// WriteChecksums writes dir/checksums.txt: the SHA-256 of every other
// regular file in dir, sorted by name, in sha256sum's format (so that
// `sha256sum -c checksums.txt` checks them).
func WriteChecksums(dir string) error {
	names, err := assetNames(dir)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("checksums: %w", err)
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(&b, "%s  %s\n", hex.EncodeToString(sum[:]), name)
	}
	if err := os.WriteFile(filepath.Join(dir, ChecksumsName), []byte(b.String()), 0o644); err != nil {
		return fmt.Errorf("checksums: %w", err)
	}
	return nil
}

// VerifyChecksums checks dir/checksums.txt against the files: each line
// well-formed and naming a file of dir (not the marker) whose SHA-256 it
// is, and every other file of dir but the marker listed. It returns one problem per line or file at fault.
func VerifyChecksums(dir string) []string {
	path := filepath.Join(dir, ChecksumsName)
	data, err := os.ReadFile(path)
	if err != nil {
		return []string{fmt.Sprintf("%s: %v", ChecksumsName, err)}
	}
	var problems []string
	listed := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 || strings.ContainsAny(name, `/\`) || name == "" {
			problems = append(problems, fmt.Sprintf("%s:%d: want \"<sha256 in hex>  <file name>\", got %q", ChecksumsName, n, sc.Text()))
			continue
		}
		if name == MarkerName {
			problems = append(problems, fmt.Sprintf("%s:%d: lists %s, which marks the folder and is no asset", ChecksumsName, n, MarkerName))
		}
		listed[name] = true
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: %v", ChecksumsName, n, err))
			continue
		}
		got := sha256.Sum256(content)
		if hex.EncodeToString(got[:]) != sum {
			problems = append(problems, fmt.Sprintf("%s:%d: %s has SHA-256 %x, the file says %s", ChecksumsName, n, name, got, sum))
		}
	}
	names, err := assetNames(dir)
	if err != nil {
		return append(problems, err.Error())
	}
	for _, name := range names {
		if !listed[name] {
			problems = append(problems, fmt.Sprintf("%s does not list %s", ChecksumsName, name))
		}
	}
	return problems
}

// assetNames lists the regular files of dir but checksums.txt and the
// marker, sorted.
func assetNames(dir string) ([]string, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("assets: %w", err)
	}
	var names []string
	for _, de := range des {
		if de.Type().IsRegular() && de.Name() != ChecksumsName && de.Name() != MarkerName {
			names = append(names, de.Name())
		}
	}
	sort.Strings(names)
	return names, nil
}
