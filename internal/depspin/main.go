package main

import (
	_ "github.com/alecthomas/kong"
	_ "github.com/gocarina/gocsv"
	_ "github.com/google/go-cmp/cmp"
	_ "github.com/vbauerster/mpb/v8"
	_ "github.com/xuri/excelize/v2"
	_ "go.etcd.io/bbolt"
	_ "golang.org/x/term"
	_ "golang.org/x/text/encoding/charmap"
	_ "golang.org/x/time/rate"
	_ "gopkg.in/yaml.v3"
)

func main() {}
