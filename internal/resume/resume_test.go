package resume

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func lines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	return strings.Fields(string(b)), err
}

// A second run reads what the first appended and appends after it.
func TestOpenReadsBackAndAppends(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	done, f, err := Open(dir, "p.txt", lines)
	if err != nil || len(done) != 0 {
		t.Fatal(done, err)
	}
	f.WriteString("a\nb\n")
	f.Close()
	done, f, err = Open(dir, "p.txt", lines)
	if err != nil || strings.Join(done, ",") != "a,b" {
		t.Fatal(done, err)
	}
	f.WriteString("c\n")
	f.Close()
	if done, _ := lines(filepath.Join(dir, "p.txt")); strings.Join(done, ",") != "a,b,c" {
		t.Fatal(done)
	}
	if _, _, err := Open(filepath.Join(dir, "p.txt"), "q", lines); err == nil {
		t.Error("a directory under a file was made")
	}
}
