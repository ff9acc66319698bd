package spv

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"

	"github.com/btcsuite/btcd/chainhash/v2"
	"github.com/btcsuite/btcd/wire/v2"
)

// Anchors returns the published anchors of n, lowest first; none for
// regtest. docs/btc-checkpoints.md lists where each comes from.
func Anchors(n *Network) []Anchor { return publishedAnchors[n.Known()] }

var publishedAnchors = map[*Network][]Anchor{
	Mainnet: mainnetAnchors, Testnet3: testnet3Anchors, Testnet4: testnet4Anchors, Signet: signetAnchors,
}

// Mainnet and testnet3 anchors are lines of bitcoinj's checkpoint files
// (bitcoinj/bitcoinj core/src/main/resources/org.bitcoin.production.checkpoints.txt
// and org.bitcoin.test.checkpoints.txt, commit
// 2c9cdb77cc1d30be07a9c6baf7d936c004690db8), one every 2016 blocks: each is
// the base64 of a block's chain work (12 bytes), height (4, big-endian) and
// 80-byte header. An anchor is a pair of consecutive lines: the block at
// the second's height is the anchor, the first's the locator.
var (
	mainnetAnchors  = bitcoinjAnchors(mainnetLines...)
	testnet3Anchors = bitcoinjAnchors(testnet3Lines...)

	mainnetLines = []string{
		"AAAAAAU4Cq0i+3IeAAGB4AEAAAD56JBkoYAvTbuvRNqKp7TLA01rjlf4uFC4kgIAAAAAAJNpGsZYATB7pFLumTP7IhNBHlmmwGrXksjxewgYcrfRG/MQTUyGBBvh1Pog",
		"AAAAAAb1olFOzFrgAAGJwAEAAADd91CQvr4E/QC9XVSUWn53X/IaASN04oT+WgIAAAAAAHpxEA2jK0VPFeGGO23aFIyDD5LA6ZgGwQ9prGOS6jy5M1ohTcsEBBsk2gT4",
		"AAAAGnlueBNyjGqcAAMLoAEAAADxMAVyLCW6TmMToi8xd/5fHCSs9IP1C3YEAwAAAAAAADx5cYOZfXdScyl5oKbjMjjNawr0xA7EYHrK+JA9lZFNs0NaUIvbBRoA5+c0",
		"AAAAG9GcmthZbdjQAAMTgAEAAACdb04J1XnJMBWoPpCB/ug6XIsbo8hlFrYfBAAAAAAAACU5kxe7XHxNrv6P4sTfrAzqfk6FkTzWZwMDdyQMrf6TpJBrUAh+BRqEKX33",
		"AMIJZ3KMyNccgCcuAAeZIAAAACBl165IP0v4xn2hf9HL0ZYPnORu9b/jzgAAAAAAAAAAAIqwdYAuU8F/SVUQIJH3F0Q8KyGIaWt/4QwykQuEUZIdeRkoWu2wABjQAO0Q",
		"AM1urjbAzuVkCJbTAAehAAAAACDjfICnqLhQ4+ia3QkJC2uJuHRJZRPviQAAAAAAAAAAAChd3HmF58NOsgXSwxKXJ/e8EIc+EeBUtI0aknhqQtfSyMg3WkWWABibOqeS",
		"FdDmSXs4LVrTs1CaAAoHQAAAACDvuQVfiWazEOmUBkUubcV9HD6bQ4YDCQAAAAAAAAAAAIpAWQyuvdv0i6cfyxgL/cqONcYtUdP6eDTQOlOgmOc5h7CyX93+DxdiV5Q4",
		"Fk7wqQvRa3I8HIU0AAoPIAAAACClMk0cUuhV+1lsN2AW0bLOzyOjOxhvBAAAAAAAAAAAAHvW0itHeUSYGKmni03ZQ4CQz/twR/T8aM+iCLhkzgVuGaXDX1axDheZrIxe",
		"INJeT/7WHqcUv/ASAAqkwAQAACAW1bP3ULCb7l1WrnZh1Fhdtr5iEoiNCQAAAAAAAAAAAL+GJQD++FLt8be0h0yd/f7oJ6+wHbrc9Wrx4d4UmM48jFYmYaD6DxfK6HL9",
		"IVCJbIepFmtNRMOrAAqsoATg/z9jvkqOCEjsMXZ5NSTR70jjJY6jcMsZAAAAAAAAAAAAAJ3FfWBYz4SZErDMatFIMKICRh05en60mvmWrgW1GboLNQQ4YeRIDxfArM0V",
		"MQFPxJukU2VxMFdOAAtZ4AAAACApa4oHrXf6puy7j32rMvUjTGRrfJWLAQAAAAAAAAAAABKnBBe1oFke1naU3WG6h+4aDnIXwuoVwPZ1LCm3a+ZzTifGYq+nCRcq/XE0",
		"MdIcHeFGfAlbkVDqAAthwAAAoCDFNZi9ceOhJ3/+b+ZkrSX8vdeZaYcoBQAAAAAAAAAAAA1K6O4gwwsberuLWymXcc54s3bH+XatWywsa2B+QHinkpfZYgQqChcOvaUn",
		"YGpD6sniSdqURUzjAAyFIADACSD9Cx5NlJq7+d3suazWHdRTprpaNqslAQAAAAAAAAAAAFdk61xUuiknwv0zGN8XZaV/PoJe4NQBTsVpgbCu7bYwJDd1ZZUuBBdqNUx0",
		"YkxaPIduPm//2cgAAAyNAADg/z+C96rPYPrDhzsL6t5h0HAWOQkK5fR4AAAAAAAAAAAAAKy8GzOBxnGyt3U7siUtPr1pAEhuyBU86xDpVKhuP54UaHiGZbPoAxf1FxZJ",
	}
	testnet3Lines = []string{
		"AAACF4nyDgLxiV7bABzyYADgACDIOMkuyXNSF9wYvZggFGUrSxUvg3ejI4UBAAAAAAAAADncfCOeDgdsdeqK/fHEMeD+PQzMiT1pfqoP8E+AJzg4kO7SX1HZRhl1oCyC",
		"AAACMHUVqkpSFGtzABz6QAAAACC5LsxC37XUMbTernh/aT+l+7NZuXOOoVgfAAAAAAAAAJ3QgWopk4urqM+wvkQxOTflR+tQS3fL4NKJnNX2g0BHuqvfX1flMBlQ1Gbx",
		"AAAMWlmONXu18WpJACco4ABgsSEvm9n0jX1aggiBhzyzOUrDsJ3F+zCNse3kDwAAAAAAAD1M18v5yXGyW9yH9d/6iVJYJQ83RiGxVRe6r5sxfCTltuaLZfz/AxrG9b4r",
		"AAAMXFJQLj2us2MJACcwwADg4S9hmERbU9pBuBu1CoT5E5bHGVxNrVdpleQ/AAAAAAAAAMqVxSnzRIIWV3WZ2E3BXlV7W9XcqAI3yyUAs+SyIDypvWqNZf//ABq0BJ36",
	}
)

// Testnet4 and signet anchors are entries of Electrum's checkpoint files
// (spesmilo/electrum electrum/chains/testnet4/checkpoints.json at commit
// 08fa871f39d9ba69afd91a225a820ea120d05d91, and
// electrum/chains/signet/checkpoints.json at commit
// 08d28272acec4cb5ac07a3102c5be0f4f5247d98): entry i is the hash of block
// 2016·(i+1)-1 (electrum/blockchain.py, get_hash). An anchor is a pair of
// consecutive entries, given with the index of the second.
var (
	testnet4Anchors = []Anchor{
		electrumAnchor(23, "00000000e4ad2ec95dfddce6a554f626c9995e465b067e72528f6ae164fc58d2", "00000000761cd6bff5e11258943e401e1bb094a8013e810e1d6031ce273a4b7c"),
		electrumAnchor(57, "000000006b606bff2dfa618d2975fdfc2bea491f558ebe16be2ca7a0aa1c0181", "0000000005dfc1e853b8d644598b77bdd97ef7578f9ccbb840aa3860fda9ddac"),
	}
	signetAnchors = []Anchor{
		electrumAnchor(124, "0000000842d0fa799de1397043352af7fe7da168314c9a0a173fa13304d396a8", "0000000b66f892759e13adc4249d1200a4c9bba92d56830816d5804cd2254d29"),
	}
)

// bitcoinjAnchors decodes pairs of bitcoinj checkpoint lines.
func bitcoinjAnchors(lines ...string) []Anchor {
	var as []Anchor
	for i := 0; i+1 < len(lines); i += 2 {
		lh, locator := bitcoinjLine(lines[i])
		h, hdr := bitcoinjLine(lines[i+1])
		as = append(as, Anchor{Height: h, Hash: hdr.BlockHash(), LocatorHeight: lh, Locator: locator.BlockHash()})
	}
	return as
}

// bitcoinjLine decodes one line of a bitcoinj checkpoint file: the height
// and the header. The lines are constants, so a malformed one panics.
func bitcoinjLine(line string) (int32, wire.BlockHeader) {
	b, err := base64.StdEncoding.DecodeString(line)
	if err != nil || len(b) != 96 {
		panic(fmt.Sprintf("spv: bitcoinj checkpoint %q: %d bytes, %v", line, len(b), err))
	}
	var h wire.BlockHeader
	if err := h.Deserialize(bytes.NewReader(b[16:])); err != nil {
		panic(err)
	}
	return int32(binary.BigEndian.Uint32(b[12:16])), h
}

// electrumAnchor makes the anchor of Electrum entries i-1 and i.
func electrumAnchor(i int32, locator, hash string) Anchor {
	return Anchor{Height: 2016*(i+1) - 1, Hash: displayHash(hash), LocatorHeight: 2016*i - 1, Locator: displayHash(locator)}
}

func displayHash(s string) chainhash.Hash {
	h, err := chainhash.NewHashFromStr(s)
	if err != nil {
		panic(err)
	}
	return *h
}
