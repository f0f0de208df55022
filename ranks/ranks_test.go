package ranks

import "testing"

func TestBand(t *testing.T) {
	for _, c := range []struct {
		rating float64
		step   int
		want   int
	}{
		{1500, 200, 1400}, {1599.9, 200, 1400}, {1600, 200, 1600}, {1662.3, 100, 1600}, {-20, 200, 0}, {2999, 1000, 2000}, {1500, 0, 0},
	} {
		if got := Band(c.rating, c.step); got != c.want {
			t.Errorf("Band(%v, %d) = %d, want %d", c.rating, c.step, got, c.want)
		}
	}
}

func TestChange(t *testing.T) {
	held := []Role{
		{Speed: "blitz", Step: 200, Band: 1400, RoleID: "b14"},
		{Speed: "rapid", Step: 200, Band: 1800, RoleID: "r18"},
		{Speed: "blitz", Step: 100, Band: 1600, RoleID: "old"}, // of a step no longer used
	}
	remove, add := Change(held, "blitz", 200, 1600)
	if !add || len(remove) != 2 || remove[0].RoleID != "b14" || remove[1].RoleID != "old" {
		t.Errorf("moving up: remove %v, add %v", remove, add)
	}
	remove, add = Change(held[:2], "blitz", 200, 1400)
	if add || len(remove) != 0 {
		t.Errorf("staying: remove %v, add %v", remove, add)
	}
	if remove, add = Change(nil, "bullet", 200, 1400); !add || len(remove) != 0 {
		t.Errorf("a first role: remove %v, add %v", remove, add)
	}
}
