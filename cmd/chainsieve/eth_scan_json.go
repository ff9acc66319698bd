package main

import (
	"encoding/json"
	"errors"
	"fmt"
)

// jsonFlag checks that a flag's value is one JSON value and, where it is
// not, says so in the user's own text and bytes: the parser that reads the
// value may wrap it in more JSON, whose characters the user never typed.
func jsonFlag(name, value string) error {
	var v any
	var se *json.SyntaxError
	if err := json.Unmarshal([]byte(value), &v); !errors.As(err, &se) {
		return nil
	}
	return fmt.Errorf("--%s '%s': %v (byte %d of %d)", name, value, se, min(int(se.Offset), len(value)), len(value))
}
