package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strconv"
)

// An lsfField is one key and value of a record of LSF's JSON output.
type lsfField struct{ key, value string }

// An lsfRecord is one record of LSF's JSON output: its fields in order.
// Every value is a string, "" when there is none.
type lsfRecord []lsfField

// writeLSFJSON writes records the way LSF's -json output lays them out:
//
//	{
//	  "COMMAND":"bjobs",
//	  "JOBS":1,
//	  "RECORDS":[
//	    {
//	      "JOBID":"42",
//	      "STAT":"RUN"
//	    }
//	  ]
//	}
//
// countKey names the count of records (JOBS, QUEUES, HOSTS).
func writeLSFJSON(w io.Writer, command, countKey string, records []lsfRecord) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("{\n  \"COMMAND\":" + jsonString(command) + ",\n")
	bw.WriteString("  " + jsonString(countKey) + ":" + strconv.Itoa(len(records)) + ",\n")
	if len(records) == 0 {
		bw.WriteString("  \"RECORDS\":[]\n}\n")
		return bw.Flush()
	}
	bw.WriteString("  \"RECORDS\":[\n")
	for i, r := range records {
		bw.WriteString("    {\n")
		for j, f := range r {
			bw.WriteString("      " + jsonString(f.key) + ":" + jsonString(f.value))
			if j < len(r)-1 {
				bw.WriteByte(',')
			}
			bw.WriteByte('\n')
		}
		bw.WriteString("    }")
		if i < len(records)-1 {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
	}
	bw.WriteString("  ]\n}\n")
	return bw.Flush()
}

// jsonString returns s as a JSON string, with <, > and & left as they are
// ("Job <42> is not found").
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s) // a string always encodes
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

// orDash returns s, or "-" when it is empty: how LSF's tables show a
// missing value.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
