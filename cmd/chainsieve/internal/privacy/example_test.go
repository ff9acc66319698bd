package privacy_test

import (
	"fmt"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/privacy"
)

func ExampleBuild() {
	r, err := privacy.Build(privacy.Config{Addresses: 20, Candidates: 56e6, Filters: 1, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, x := range r.Reproductions[:4] {
		fmt.Printf("%s %.6g %.6g\n", x.ID, float64(x.Published), float64(x.Computed))
	}
	// Output:
	// nick.elements 642 642
	// nick.size 1269 1269
	// nick.hash_funcs 10 10
	// nick.fp 0.0001468 0.000146818
}
