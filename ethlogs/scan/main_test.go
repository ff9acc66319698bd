package scan_test

import (
	"os"
	"testing"

	"github.com/chainsieve/chainsieve/ethlogs/scan/scantest"
)

func TestMain(m *testing.M) { os.Exit(scantest.Main(m)) }
