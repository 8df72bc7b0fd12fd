// Command k8s-yaml reads manifest streams as kubectl does and prints what it gets.
//
// kubectl apply -f reads a file through k8s.io/cli-runtime v0.36.2 pkg/resource/visitor.go
// StreamVisitor.Visit: k8s.io/apimachinery pkg/util/yaml NewYAMLOrJSONDecoder(reader, 4096), one
// Decode into a runtime.RawExtension per document (a YAML document becomes JSON through
// sigs.k8s.io/yaml Unmarshal, that is YAMLToJSON on go-yaml v2), the bytes trimmed, and a document
// that is empty or null skipped. This program does the same with the module versions that
// Kubernetes 1.36 pins (go.mod).
//
// Input (stdin): a JSON array of texts. Output (stdout): a JSON array with, for each text, the
// JSON of each document kept ({"documents": [...]}) or the first error ({"error": "..."}), with
// the documents read before it.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

type verdict struct {
	Documents []string `json:"documents"`
	Error     *string  `json:"error,omitempty"`
}

func read(text string) verdict {
	v := verdict{Documents: []string{}}
	d := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(text), 4096)
	for {
		ext := runtime.RawExtension{}
		if err := d.Decode(&ext); err != nil {
			if errors.Is(err, io.EOF) {
				return v
			}
			msg := err.Error()
			v.Error = &msg
			return v
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		v.Documents = append(v.Documents, string(raw))
	}
}

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		os.Stderr.WriteString("k8s-yaml: stdin is not a JSON array of strings: " + err.Error() + "\n")
		os.Exit(2)
	}
	out := make([]verdict, len(texts))
	for i, t := range texts {
		out[i] = read(t)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		os.Exit(1)
	}
}
