package release

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
)

// Entry is a file at the top level of an archive.
type Entry struct {
	Name    string
	Mode    fs.FileMode // permission bits
	ModTime time.Time
	Data    []byte
}

// WriteArchive writes entries, in their order, as a .tar.gz or, when name
// ends in .zip, a .zip. Everything that varies between two builds of one
// commit is fixed: each entry's time is modTime (the commit's), owners are
// 0 with no names, the gzip header has no name or time. Archives of the same
// entries are the same bytes.
func WriteArchive(w io.Writer, name string, entries []Entry, modTime time.Time) error {
	modTime = modTime.UTC().Truncate(time.Second)
	if strings.HasSuffix(name, ".zip") {
		return writeZip(w, entries, modTime)
	}
	if strings.HasSuffix(name, ".tar.gz") {
		return writeTarGz(w, entries, modTime)
	}
	return fmt.Errorf("archive %s: neither .tar.gz nor .zip", name)
}

func writeTarGz(w io.Writer, entries []Entry, modTime time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	if err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		h := &tar.Header{
			Typeflag: tar.TypeReg,
			Name:     e.Name,
			Mode:     int64(e.Mode.Perm()),
			Size:     int64(len(e.Data)),
			ModTime:  modTime,
			Format:   tar.FormatUSTAR,
		}
		if err := tw.WriteHeader(h); err != nil {
			return fmt.Errorf("tar %s: %w", e.Name, err)
		}
		if _, err := tw.Write(e.Data); err != nil {
			return fmt.Errorf("tar %s: %w", e.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return fmt.Errorf("tar: %w", err)
	}
	if err := gz.Close(); err != nil {
		return fmt.Errorf("gzip: %w", err)
	}
	return nil
}

func writeZip(w io.Writer, entries []Entry, modTime time.Time) error {
	zw := zip.NewWriter(w)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.Name, Method: zip.Deflate, Modified: modTime}
		h.SetMode(e.Mode.Perm())
		f, err := zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("zip %s: %w", e.Name, err)
		}
		if _, err := f.Write(e.Data); err != nil {
			return fmt.Errorf("zip %s: %w", e.Name, err)
		}
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("zip: %w", err)
	}
	return nil
}

// ReadArchive reads every entry of a .tar.gz or .zip (by name), folders
// and links included as entries with their mode, so that a check sees
// them.
func ReadArchive(name string, data []byte) ([]Entry, error) {
	if strings.HasSuffix(name, ".zip") {
		return readZip(data)
	}
	if strings.HasSuffix(name, ".tar.gz") {
		return readTarGz(data)
	}
	return nil, fmt.Errorf("archive %s: neither .tar.gz nor .zip", name)
}

func readTarGz(data []byte) ([]Entry, error) {
	gz, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	tr := tar.NewReader(gz)
	var entries []Entry
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("tar: %w", err)
		}
		content, err := io.ReadAll(tr)
		if err != nil {
			return nil, fmt.Errorf("tar %s: %w", h.Name, err)
		}
		entries = append(entries, Entry{Name: h.Name, Mode: h.FileInfo().Mode(), ModTime: h.ModTime, Data: content})
	}
	if _, err := io.Copy(io.Discard, gz); err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return entries, nil
}

func readZip(data []byte) ([]Entry, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("zip: %w", err)
	}
	var entries []Entry
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("zip %s: %w", f.Name, err)
		}
		content, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("zip %s: %w", f.Name, err)
		}
		entries = append(entries, Entry{Name: f.Name, Mode: f.Mode(), ModTime: f.Modified, Data: content})
	}
	return entries, nil
}
