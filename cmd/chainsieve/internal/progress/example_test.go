package progress_test

import (
	"fmt"
	"os"

	"github.com/chainsieve/chainsieve/cmd/chainsieve/internal/progress"
)

// A command draws its progress on stderr, which shows it on a terminal and
// drops it in a pipe, and clears the line before printing a result.
func ExampleLine() {
	line := progress.New(os.Stderr)
	for done := 1; done <= 100; done++ {
		line.Draw(done == 100, func() string {
			return fmt.Sprintf("%s %d/100 blocks", progress.Bar(float64(done)/100, 30), done)
		})
	}
	line.Clear()
	os.Stdout.WriteString("done\n")
	// Output: done
}
