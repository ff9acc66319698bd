package testvectors

import "testing"

// FuzzParse feeds arbitrary bytes to Detect and to every parser: a vector
// file handed to the CLI is untrusted input, so the decoders must return an
// error, never panic.
func FuzzParse(f *testing.F) {
	for _, name := range []string{"bip37/murmur3_x86_32.json", "bip158/decode-strictness.json", "bip158/raw-gcs.json"} {
		data, err := Read(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`[["Block Height,Block Hash,Block,x"],[0,"00","00",[],"00","00","00",""]]`))
	f.Add([]byte(`{"blocks":[{"headerRlp":"0x00","hash":"0x00"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		Detect(data)
		ParseMurmur3(data)
		ParseBIP37Filter(data)
		ParseBIP37Match(data)
		ParseBIP37MerkleBlock(data)
		ParseBIP158Table(data)
		ParseBIP158Blocks(data)
		if f, err := ParseGCSRaw(data); err == nil {
			for _, v := range f.GCS {
				v.GenerateElements()
			}
		}
		if f, err := ParseGCSMatchAny(data); err == nil {
			for _, c := range f.Cases {
				f.QueryElements(c)
			}
		}
		ParseGCSDecode(data)
		ParseEthBlocks(data)
		if f, err := ParseEthBloom9(data); err == nil && f.Extensive != nil {
			f.Extensive.Inputs()
		}
	})
}
