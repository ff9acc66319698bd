package livenode

import (
	"bytes"
	"context"
	"testing"
	"time"
)

// TestGeth deploys the emitter on geth --dev, calls it, and checks the
// receipts and eth_getLogs against what the contract is documented to log.
func TestGeth(t *testing.T) {
	t.Parallel()
	began := time.Now()
	g := StartGeth(t)
	t.Logf("geth answered RPC %v after the start call", time.Since(began).Round(time.Millisecond))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	began = time.Now()

	checkTopics(ctx, t, g)
	emitter, created, err := g.DeployEmitter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(created.Logs) != 1 || created.Logs[0].Address != emitter ||
		len(created.Logs[0].Topics) != 1 || created.Logs[0].Topics[0] != CreatedTopic {
		t.Fatalf("deploy receipt logs = %+v, want one Created() log from %v", created.Logs, emitter)
	}
	payloads := [][]byte{{}, []byte("ping"), bytes.Repeat([]byte{0xab}, 100)}
	var receipts []*Receipt
	for _, data := range payloads {
		r, err := g.Transact(ctx, &emitter, data)
		if err != nil {
			t.Fatal(err)
		}
		checkPing(t, g, r.Logs, emitter, data)
		receipts = append(receipts, r)
	}
	// geth --dev usually seals one block per transaction but sometimes
	// adds empty ones, so only the order is certain.
	if n, err := g.BlockNumber(ctx); err != nil || n < receipts[2].BlockNumber {
		t.Errorf("BlockNumber() = %d, %v, want at least %d", n, err, receipts[2].BlockNumber)
	}
	checkGetLogs(ctx, t, g, emitter, created, receipts, payloads)
	t.Logf("geth scenario took %v", time.Since(began).Round(time.Millisecond))
}

// checkTopics asks geth's web3_sha3 for the Keccak-256 of each event
// signature.
func checkTopics(ctx context.Context, t *testing.T, g *Geth) {
	t.Helper()
	for sig, want := range map[string]EthHash{"Created()": CreatedTopic, "Ping(address,bytes)": PingTopic} {
		var got EthHash
		if err := g.RPC.Call(ctx, &got, "web3_sha3", hexBytes(sig)); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("web3_sha3(%q) = %v, want the topic %v", sig, got, want)
		}
	}
}

// checkPing checks that logs is the single Ping log of a call with data.
func checkPing(t *testing.T, g *Geth, logs []Log, emitter EthAddress, data []byte) {
	t.Helper()
	var caller EthHash
	copy(caller[12:], g.Dev[:])
	if len(logs) != 1 {
		t.Fatalf("call with %x: %d logs, want 1", data, len(logs))
	}
	l := logs[0]
	if l.Address != emitter || len(l.Topics) != 2 || l.Topics[0] != PingTopic ||
		l.Topics[1] != caller || !bytes.Equal(l.Data, data) {
		t.Errorf("call with %x: log = %+v, want Ping(%v) from %v with the calldata", data, l, g.Dev, emitter)
	}
}

// checkGetLogs compares eth_getLogs answers over the test's blocks with
// the receipts.
func checkGetLogs(ctx context.Context, t *testing.T, g *Geth, emitter EthAddress, created *Receipt, receipts []*Receipt, payloads [][]byte) {
	t.Helper()
	var caller EthHash
	copy(caller[12:], g.Dev[:])
	from, to := created.BlockNumber, receipts[len(receipts)-1].BlockNumber
	tests := []struct {
		name  string
		query LogQuery
		want  int
	}{
		{"Ping from emitter", LogQuery{Addresses: []EthAddress{emitter}, Topics: [][]EthHash{{PingTopic}}}, len(payloads)},
		{"any event with topic 1 = caller", LogQuery{Topics: [][]EthHash{nil, {caller}}}, len(payloads)},
		{"Created or Ping", LogQuery{Topics: [][]EthHash{{CreatedTopic, PingTopic}}}, 1 + len(payloads)},
		{"Created", LogQuery{Topics: [][]EthHash{{CreatedTopic}}}, 1},
		{"unknown topic", LogQuery{Topics: [][]EthHash{{caller}}}, 0},
		{"other address", LogQuery{Addresses: []EthAddress{g.Dev}}, 0},
	}
	for _, tt := range tests {
		tt.query.FromBlock, tt.query.ToBlock = from, to
		logs, err := g.Logs(ctx, tt.query)
		if err != nil {
			t.Fatal(err)
		}
		if len(logs) != tt.want {
			t.Errorf("Logs(%s) = %d logs, want %d", tt.name, len(logs), tt.want)
		}
	}
	logs, err := g.Logs(ctx, LogQuery{FromBlock: from, ToBlock: to, Topics: [][]EthHash{{PingTopic}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range logs {
		r := receipts[i]
		if l.TxHash != r.TxHash || l.BlockNumber != r.BlockNumber || l.BlockHash != r.BlockHash ||
			!bytes.Equal(l.Data, payloads[i]) || l.Removed {
			t.Errorf("Logs(Ping)[%d] = %+v, want the log of receipt %+v", i, l, r)
		}
		if len(r.LogsBloom) != 256 {
			t.Errorf("receipt %v: logsBloom is %d bytes, want 256", r.TxHash, len(r.LogsBloom))
		}
	}
}
