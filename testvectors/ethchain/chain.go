package ethchain

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/lru"
	"github.com/ethereum/go-ethereum/core/rawdb"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethdb"
	"github.com/ethereum/go-ethereum/ethdb/pebble"
	"github.com/ethereum/go-ethereum/params"
)

// version names the generator's output in the cache: change it whenever
// the generated chain changes.
const version = "v1"

// Chain is a generated chain in a go-ethereum database: headers, bodies,
// receipts and canonical hashes of blocks 0 to Head.
type Chain struct {
	DB     ethdb.Database
	Config *params.ChainConfig
	Head   uint64
	Sizes  []Sizes // by block number; nil for a Memory chain

	receipts *lru.Cache[common.Hash, types.Receipts]
}

// receiptsCache is core.BlockChain's receipts cache size (receiptsCacheLimit).
const receiptsCache = 32

func newChain(db ethdb.Database, blocks int, sizes []Sizes) *Chain {
	return &Chain{DB: db, Config: genesis().Config, Head: uint64(blocks), Sizes: sizes,
		receipts: lru.NewCache[common.Hash, types.Receipts](receiptsCache)}
}

// Memory generates a chain of blocks blocks after its genesis in memory.
// Its Sizes are nil: encoding every block's JSON to measure it is two
// fifths of generating, and only the benchmarks over a Cached chain read
// them.
func Memory(blocks int) (*Chain, error) {
	db := rawdb.NewMemoryDatabase()
	if _, err := generate(db, blocks, false); err != nil {
		return nil, err
	}
	return newChain(db, blocks, nil), nil
}

// Cached opens the chain of blocks blocks kept in the user cache directory
// (chainsieve/ethchain-<version>-<blocks>), generating it there first if
// it is not.
func Cached(blocks int) (*Chain, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return nil, fmt.Errorf("ethchain: %w", err)
	}
	return Open(filepath.Join(dir, "chainsieve", fmt.Sprintf("ethchain-%s-%d", version, blocks)), blocks)
}

// Open opens the chain of blocks blocks kept in dir, generating it there
// first if dir does not exist. A generation is written beside dir and
// renamed into place when complete, so an interrupted one leaves no dir.
func Open(dir string, blocks int) (*Chain, error) {
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		if err := create(dir, blocks); err != nil {
			return nil, err
		}
	}
	sizes, err := readSizes(filepath.Join(dir, "sizes"), blocks)
	if err != nil {
		return nil, err
	}
	kv, err := pebble.New(filepath.Join(dir, "db"), 256, 256, "", true)
	if err != nil {
		return nil, fmt.Errorf("ethchain: %w", err)
	}
	return newChain(rawdb.NewDatabase(kv), blocks, sizes), nil
}

func create(dir string, blocks int) error {
	tmp := fmt.Sprintf("%s.tmp-%d", dir, os.Getpid())
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return fmt.Errorf("ethchain: %w", err)
	}
	defer os.RemoveAll(tmp)
	kv, err := pebble.New(filepath.Join(tmp, "db"), 256, 256, "", false)
	if err != nil {
		return fmt.Errorf("ethchain: %w", err)
	}
	sizes, err := Generate(rawdb.NewDatabase(kv), blocks)
	if cerr := kv.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := writeSizes(filepath.Join(tmp, "sizes"), sizes); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

func writeSizes(name string, sizes []Sizes) error {
	out := make([]byte, 0, 8*len(sizes))
	for _, s := range sizes {
		out = binary.LittleEndian.AppendUint32(out, s.Header)
		out = binary.LittleEndian.AppendUint32(out, s.Receipts)
	}
	return os.WriteFile(name, out, 0o644)
}

func readSizes(name string, blocks int) ([]Sizes, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("ethchain: %w", err)
	}
	if len(b) != 8*(blocks+1) {
		return nil, fmt.Errorf("ethchain: %s holds %d bytes, want %d for %d blocks", name, len(b), 8*(blocks+1), blocks)
	}
	sizes := make([]Sizes, blocks+1)
	for i := range sizes {
		sizes[i] = Sizes{binary.LittleEndian.Uint32(b[8*i:]), binary.LittleEndian.Uint32(b[8*i+4:])}
	}
	return sizes, nil
}

// Close closes the chain's database.
func (c *Chain) Close() error { return c.DB.Close() }

// Header returns the header of block n.
func (c *Chain) Header(n uint64) *types.Header {
	return rawdb.ReadHeader(c.DB, rawdb.ReadCanonicalHash(c.DB, n), n)
}

// GetHeader returns a header, as core.BlockChain does.
func (c *Chain) GetHeader(hash common.Hash, number uint64) *types.Header {
	return rawdb.ReadHeader(c.DB, hash, number)
}

// GetCanonicalHash returns the hash of block number, as core.BlockChain does.
func (c *Chain) GetCanonicalHash(number uint64) common.Hash {
	return rawdb.ReadCanonicalHash(c.DB, number)
}

// GetReceiptsByHash returns a block's receipts with their derived fields,
// as core.BlockChain does, with its cache of the last 32 blocks read.
func (c *Chain) GetReceiptsByHash(hash common.Hash) types.Receipts {
	if rs, ok := c.receipts.Get(hash); ok {
		return rs
	}
	n, ok := rawdb.ReadHeaderNumber(c.DB, hash)
	if !ok {
		return nil
	}
	h := rawdb.ReadHeader(c.DB, hash, n)
	if h == nil {
		return nil
	}
	rs := rawdb.ReadReceipts(c.DB, hash, n, h.Time, c.Config)
	if rs != nil {
		c.receipts.Add(hash, rs)
	}
	return rs
}

// GetRawReceipts returns a block's receipts as stored.
func (c *Chain) GetRawReceipts(hash common.Hash, number uint64) types.Receipts {
	return rawdb.ReadRawReceipts(c.DB, hash, number)
}
