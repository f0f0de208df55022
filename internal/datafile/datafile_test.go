package datafile

import (
	"reflect"
	"testing"
)

func TestLines(t *testing.T) {
	got := Lines("# header\n\nf5d6 tiger # a comment\n  a  b  c \n#\n")
	want := []Line{{3, []string{"f5d6", "tiger"}}, {4, []string{"a", "b", "c"}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if Lines("") != nil {
		t.Error("an empty file has lines")
	}
}
