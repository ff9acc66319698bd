package scan_test

import (
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan"
)

// TestModeNames pins each mode to the name it prints and parses: the values
// of the CLI's --verify flag and part of a checkpoint's identity, so they
// must not change.
func TestModeNames(t *testing.T) {
	tests := []struct {
		mode scan.Mode
		name string
	}{
		{scan.Full, "full"},
		{scan.BloomUntrusted, "bloom-untrusted"},
		{scan.None, "none"},
	}
	for _, tt := range tests {
		if got := tt.mode.String(); got != tt.name {
			t.Errorf("Mode(%d).String() = %q, want %q", tt.mode, got, tt.name)
		}
		if got, err := scan.ParseMode(tt.name); got != tt.mode || err != nil {
			t.Errorf("ParseMode(%q) = %v, %v, want %v", tt.name, got, err, tt.mode)
		}
	}
	if _, err := scan.ParseMode("verify"); err == nil {
		t.Errorf(`ParseMode("verify") = nil error`)
	}
}
