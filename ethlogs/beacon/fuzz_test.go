package beacon_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"unicode"

	"github.com/chainsieve/chainsieve/ethlogs/beacon"
	"github.com/chainsieve/chainsieve/ethlogs/beacon/beacontest"
)

// FuzzDecode feeds the decoders of the three answers arbitrary bytes,
// seeded with honest answers: none may panic, and every error must be
// fit for a terminal: no control characters, bounded length.
func FuzzDecode(f *testing.F) {
	c := sharedChain(f)
	s := serve(f, c, beacontest.Honest, 0)
	for kind, path := range []string{
		"/eth/v1/beacon/light_client/bootstrap/" + c.Checkpoint().Hex(),
		"/eth/v1/beacon/light_client/updates?start_period=10&count=2",
		"/eth/v1/beacon/light_client/finality_update",
	} {
		body := get(f, s.URL+path)
		if err := beacon.Decode(byte(kind), body, c.Config()); err != nil {
			f.Fatalf("Decode(honest %s) = %v", path, err)
		}
		f.Add(byte(kind), body)
		f.Add(byte(kind), []byte(strings.Replace(string(body), `"slot":"`, `"slot":"1`, 1)))
	}
	f.Add(byte(2), []byte("\x1b[2J\x00 not json"))
	f.Add(byte(1), []byte(`[{"version":"gloas","data":{}}]`))
	chain := c.Config()
	f.Fuzz(func(t *testing.T, kind byte, body []byte) {
		err := beacon.Decode(kind, body, chain)
		if err == nil {
			return
		}
		if msg := err.Error(); strings.ContainsFunc(msg, unicode.IsControl) || len(msg) > 1200 {
			t.Fatalf("Decode error is unfit for a terminal (%d bytes): %q", len(msg), msg)
		}
	})
}

func get(t testing.TB, url string) []byte {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return b
}
