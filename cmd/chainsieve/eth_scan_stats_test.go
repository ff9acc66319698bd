package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/privacy"
	"github.com/chainsieve/chainsieve/ethlogs/scan"
)

// readJSON reads a --stats file into a map, to look at it field by field.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return m
}

// normalizeEthStats replaces what changes from run to run, after checking
// it: the demo node's port, the time taken, and the round trips and bytes
// received. How the calls share round trips depends on timing (a batch
// leaves when the sender is free), and with it the bytes of the batches'
// envelopes: 24 round trips and 666,459 bytes, or 22 and 666,463, in 25
// runs on a loaded machine; the calls (430) and what they carry do not
// change.
func normalizeEthStats(t *testing.T, data []byte) string {
	t.Helper()
	s := string(data)
	port := regexp.MustCompile(`"peer": "http://127\.0\.0\.1:\d+"`)
	if !port.MatchString(s) {
		t.Errorf("--stats peer is not the demo node on 127.0.0.1:\n%s", s)
	}
	s = port.ReplaceAllString(s, `"peer": "http://127.0.0.1:PORT"`)
	took := regexp.MustCompile(`"durationSeconds": ([0-9.e-]+)`)
	if m := took.FindStringSubmatch(s); m == nil || m[1] == "0" {
		t.Errorf("--stats durationSeconds missing or zero:\n%s", s)
	}
	s = took.ReplaceAllString(s, `"durationSeconds": 0`)
	for _, field := range []string{"roundTrips", "bytesReceived"} {
		re := regexp.MustCompile(`"` + field + `": (\d+)`)
		if m := re.FindStringSubmatch(s); m == nil || m[1] == "0" {
			t.Errorf("--stats %s missing or zero:\n%s", field, s)
		}
		s = re.ReplaceAllString(s, `"`+field+`": 0`)
	}
	return s
}

// TestEthScanStats scans the demo chain with --stats and pins the file
// (the demo chain is the same on every machine; the port and the time are
// normalised), checks it against the logs printed and the summary, and
// that report privacy reads it as btc scan's.
func TestEthScanStats(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "eth.json")
	code, stdout, stderr := runCLI(t, "eth", "scan", "--json", "--index", t.TempDir(), "--stats", path)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "eth-scan-stats.golden", normalizeEthStats(t, data))

	var st ethStatsJSON
	if err := json.Unmarshal(data, &st); err != nil {
		t.Fatal(err)
	}
	if lines := len(splitLines(stdout)); st.Eth.Logs != uint64(lines) || lines == 0 {
		t.Errorf("--stats eth.logs = %d, the scan printed %d logs", st.Eth.Logs, lines)
	}
	if st.BlocksScanned != st.To-st.From+1 || st.FalsePositives != st.Eth.Candidates-st.Eth.Matched ||
		st.BytesReceived < st.Eth.HeaderBytes+st.Eth.ReceiptBytes || st.RoundTrips == 0 || st.Error != "" {
		t.Errorf("--stats is inconsistent: %+v", st)
	}
	if !strings.Contains(stderr, "headers: 301 in blocks 0 to 300") || st.BlocksScanned != 301 {
		t.Errorf("--stats says %d blocks; the summary:\n%s", st.BlocksScanned, stderr)
	}

	// The fields both scans write have the same names (and report privacy
	// reads them the same way).
	btc, eth := jsonKeys(btcStatsJSON{}), jsonKeys(ethStatsJSON{})
	for _, k := range []string{"mode", "network", "peer", "from", "to", "blocksScanned", "headersVerified", "falsePositives",
		"falsePositiveUnit", "bytesReceived", "roundTrips", "durationSeconds", "error"} {
		if !btc[k] || !eth[k] {
			t.Errorf("field %q: in btc scan --stats %v, in eth scan --stats %v; want both", k, btc[k], eth[k])
		}
	}
	parsed, err := privacy.ParseStats(path, data)
	if err != nil || parsed.Mode != "eth" || parsed.Blocks != 301 || parsed.BytesReceived != float64(st.BytesReceived) || parsed.BytesSent != nil {
		t.Errorf("privacy.ParseStats(eth scan --stats) = %+v, %v", parsed, err)
	}
}

// jsonKeys returns the JSON names of a struct's fields.
func jsonKeys(v any) map[string]bool {
	b, _ := json.Marshal(v)
	var m map[string]any
	json.Unmarshal(b, &m)
	keys := map[string]bool{"error": true} // omitted when empty
	for k := range m {
		keys[k] = true
	}
	return keys
}

// TestEthScanStatsFailures: a scan that fails still writes its file, with
// the error and no block claimed, which the report refuses; a file that
// cannot be written fails a scan that succeeded.
func TestEthScanStatsFailures(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "failed.json")
	code, _, stderr := runCLI(t, "eth", "scan", "--rpc", "http://user:secret@127.0.0.1:1/v3/KEY?k=v", "--from", "0",
		"--retries", "1", "--index", t.TempDir(), "--stats", path)
	if code != exitFailure || !strings.Contains(stderr, "eth_getBlockByNumber") {
		t.Fatalf("scan of a closed port: exit %d\n%s", code, stderr)
	}
	m := readJSON(t, path)
	if m["mode"] != "eth" || m["blocksScanned"] != 0.0 || !strings.Contains(m["error"].(string), "eth_getBlockByNumber") {
		t.Errorf("--stats of a failed scan = %v; want mode eth, 0 blocks, the error", m)
	}
	if data, _ := os.ReadFile(path); strings.Contains(string(data), "KEY") || strings.Contains(string(data), "secret") {
		t.Errorf("--stats of a scan of a URL with a key in its path holds the key:\n%s", data)
	}
	if m["peer"] != "http://127.0.0.1:1" {
		t.Errorf("--stats peer = %v, want the endpoint without its user, path and query", m["peer"])
	}
	code, _, stderr = runCLI(t, "report", "privacy", "--measured", path, "--out", filepath.Join(dir, "report"))
	if code != exitFailure || !strings.Contains(stderr, "the scan failed") {
		t.Errorf("report privacy --measured (a failed scan) = %d, %s; want it refused", code, stderr)
	}

	// An unwritable file fails a scan that succeeded (runScan writes the
	// file after the logs), and only adds its message to one that failed.
	var errOut strings.Builder
	e := &env{stderr: &errOut}
	missing := filepath.Join(dir, "no", "such", "dir", "s.json")
	if !writeEthStats(e, missing, scan.Config{}, scan.Stats{}, nil) || !strings.Contains(errOut.String(), "chainsieve eth scan: --stats: ") {
		t.Errorf("an unwritable --stats after a good scan: not a failure, or no message: %q", errOut.String())
	}
	if writeEthStats(e, missing, scan.Config{}, scan.Stats{}, errors.New("lost")) {
		t.Error("an unwritable --stats after a failed scan reported as the failure")
	}
	if code, stdout, _ := runCLI(t, "eth", "scan", "-h"); code != exitOK || !strings.Contains(stdout, "-stats FILE") {
		t.Errorf("eth scan -h = %d, lacks --stats:\n%s", code, stdout)
	}
}
