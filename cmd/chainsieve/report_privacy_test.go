package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/privacy"
)

// TestReportPrivacyGolden writes the default report and compares its JSON
// and the printed reproduction table with the golden files (refresh with
// go test -update).
func TestReportPrivacyGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the whole report (a quarter of this package's -short CPU); package privacy's -short tests build and check it")
	}
	t.Parallel()
	dir := t.TempDir()
	code, stdout, stderr := runCLI(t, "report", "privacy", "--out", dir, "--seed", "1")
	if code != exitOK {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	golden(t, "privacy-reproductions.golden", stdout)
	docTableMatches(t, stdout)
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "privacy-report.json.golden", string(data))
	want := []string{"report.md", "report.html", "report.json"}
	for _, p := range []string{"recovery", "eth-saturation", "bandwidth", "bits-per-element", "false-candidates", "candidates-decoys"} {
		want = append(want, p+".svg", p+".csv")
	}
	for _, name := range want {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", name, err)
		}
	}
	// In a pipe, the progress line stays quiet: the summary is all.
	if !strings.HasPrefix(stderr, "wrote 15 files") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("stderr = %q, want the summary of 15 files alone", stderr)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	if _, rest, _ := strings.Cut(string(md), "\n## "); !strings.HasPrefix(rest, "Key findings\n") {
		t.Errorf("report.md does not open with its key findings:\n%.300s", md)
	}
}

func TestReportPrivacyProgress(t *testing.T) {
	got := reportProgress(privacy.Step{Name: "bits per element at ε = 0.01", Done: 9, Total: 36})
	if want := "report privacy [#######.......................] 9/36 bits per element at ε = 0.01"; got != want {
		t.Errorf("progress text = %q, want %q", got, want)
	}
}

func TestReportPrivacyUsage(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"mode":"bip157"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	tests := []struct {
		args       []string
		wantCode   int
		wantStderr string
	}{
		{[]string{"--addresses", "5", "--wallet", "w.txt"}, exitUsage, "exclude each other"},
		{[]string{"--filters", "0"}, exitUsage, "0 filters"},
		{[]string{"--candidates", "5"}, exitUsage, "5 candidates"},
		{[]string{"--addresses", "0"}, exitUsage, "0 addresses"},
		{[]string{"extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"--seed", "-1"}, exitUsage, "seed"},
		{[]string{"--wallet", filepath.Join(dir, "missing.txt")}, exitFailure, "missing.txt"},
		{[]string{"--measured", bad}, exitFailure, "no blocksScanned field"},
	}
	for _, tt := range tests {
		args := append([]string{"report", "privacy", "--out", out}, tt.args...)
		code, _, stderr := runCLI(t, args...)
		if code != tt.wantCode || !strings.Contains(stderr, tt.wantStderr) {
			t.Errorf("run(%q) = %d, stderr %q; want %d and %q", tt.args, code, stderr, tt.wantCode, tt.wantStderr)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed run wrote its output directory")
	}
	code, stdout, _ := runCLI(t, "report", "privacy", "-h")
	if code != exitOK || !strings.Contains(stdout, "-measured") || !strings.Contains(stdout, "-candidates") {
		t.Errorf("report privacy -h = %d, %q", code, stdout)
	}
}

// TestReportPrivacyInputs runs the command on a wallet file and the
// statistics of two scans, one in the shape btc scan --stats writes and
// the demo chain's eth scan --stats file (the golden file
// TestEthScanStats keeps), which the report must show as measured.
func TestReportPrivacyInputs(t *testing.T) {
	if testing.Short() {
		// A second full report (3-4 s of family trials); under -short the
		// golden report stands for the command, and privacy's
		// TestMeasuredInReport for measured inputs.
		t.Skip("a full privacy report; runs without -short")
	}
	t.Parallel()
	dir := t.TempDir()
	wallet := filepath.Join(dir, "wallet.txt")
	stats := filepath.Join(dir, "scan.json")
	// A compressed public key and the mainnet P2PKH address of another.
	walletText := "0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798\n1BgGZ9tcN4rm9KBzDn7KprQz87SZ26SAMH\n"
	if err := os.WriteFile(wallet, []byte(walletText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stats, []byte(`{"mode":"bip37","blocksScanned":10,"bytesReceived":2000,"durationSeconds":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	ethStats := filepath.Join("testdata", "eth-scan-stats.golden")
	code, _, stderr := runCLI(t, "report", "privacy", "--wallet", wallet, "--measured", stats, "--measured", ethStats,
		"--candidates", "1000000", "--out", out)
	if code != exitOK {
		t.Fatalf("exit code %d, stderr:\n%s", code, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Command  string
		Inputs   []struct{ ID, Model string }
		Sections []struct {
			ID         string
			Quantities []struct {
				ID    string
				Value float64
				Kind  string
			}
		}
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Command, "--wallet "+wallet) || !strings.Contains(r.Command, "--measured "+stats) {
		t.Errorf("command = %q, want the wallet and statistics files", r.Command)
	}
	// The eth scan's figure is whatever the golden stats file says.
	var eth struct{ BlocksScanned, BytesReceived float64 }
	if data, err := os.ReadFile(ethStats); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(data, &eth); err != nil || eth.BlocksScanned == 0 {
		t.Fatalf("%s: %v (blocks %g)", ethStats, err, eth.BlocksScanned)
	}
	found, foundEth := false, false
	for _, s := range r.Sections {
		for _, q := range s.Quantities {
			if q.ID == "measured.1.received_per_block" {
				found = q.Value == 200 && q.Kind == "measured by a scan"
			}
			if q.ID == "measured.2.received_per_block" {
				foundEth = math.Abs(q.Value-eth.BytesReceived/eth.BlocksScanned) < 0.01 && q.Kind == "measured by a scan"
			}
			if q.ID == "measured.2.sent_per_block" {
				t.Error("the eth scan counts no bytes sent, but the report shows bytes sent per block")
			}
			if q.ID == "bip37.elements_inserted" && q.Value != 3 {
				t.Errorf("elements inserted = %g, want 3 (a key and its hash, and one address)", q.Value)
			}
		}
	}
	if !found {
		t.Error("report.json lacks the scan's 200 bytes per block, measured by a scan")
	}
	if !foundEth {
		t.Errorf("report.json lacks the eth scan's %.0f bytes per block, measured by a scan", eth.BytesReceived/eth.BlocksScanned)
	}
}

// docTableMatches checks that docs/privacy.md shows the reproduction table
// exactly as the command prints it.
func docTableMatches(t *testing.T, table string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "privacy.md"))
	if err != nil {
		t.Fatal(err)
	}
	var indented strings.Builder
	for _, line := range strings.Split(strings.TrimSuffix(table, "\n"), "\n") {
		indented.WriteString("    " + line + "\n")
	}
	if !strings.Contains(string(doc), indented.String()) {
		t.Errorf("docs/privacy.md does not show the reproduction table as printed:\n%s", indented.String())
	}
}
