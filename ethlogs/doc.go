package ethlogs
