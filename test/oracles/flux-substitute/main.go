// Runs Flux's post-build substitution for the differential test of
// src/manifests/flux-substitution.ts: github.com/fluxcd/pkg/kustomize SubstituteVariables (the
// version kustomize-controller v1.9.4 uses) on whole resources, and github.com/fluxcd/pkg/envsubst
// Eval on bare texts.
//
// stdin: a JSON array of cases, each
//
//	{"yaml": "...", "vars": {...}, "strict": false, "always": false}   a resource
//	{"text": "...", "vars": {...}, "strict": false}                     a bare text
//
// stdout: a JSON array with, for each case, {"json": <resource>}, {"text": "..."},
// {"disabled": true} or {"error": "..."}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/fluxcd/pkg/envsubst"
	"github.com/fluxcd/pkg/kustomize"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/provider"
)

type input struct {
	YAML   *string           `json:"yaml"`
	Text   *string           `json:"text"`
	Vars   map[string]string `json:"vars"`
	Strict bool              `json:"strict"`
	Always bool              `json:"always"`
}

type output struct {
	JSON     json.RawMessage `json:"json,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Disabled bool            `json:"disabled,omitempty"`
	Error    string          `json:"error,omitempty"`
}

func run(c input) output {
	if c.Text != nil {
		out, err := envsubst.Eval(*c.Text, func(s string) (string, bool) {
			v, ok := c.Vars[s]
			if c.Strict {
				return v, ok
			}
			return v, true
		})
		if err != nil {
			return output{Error: err.Error()}
		}
		return output{Text: &out}
	}
	rf := provider.NewDefaultDepProvider().GetResourceFactory()
	res, err := rf.FromBytes([]byte(*c.YAML))
	if err != nil {
		return output{Error: "read: " + err.Error()}
	}
	substitute := map[string]interface{}{}
	for k, v := range c.Vars {
		substitute[k] = v
	}
	ks := unstructured.Unstructured{Object: map[string]interface{}{
		"apiVersion": "kustomize.toolkit.fluxcd.io/v1",
		"kind":       "Kustomization",
		"metadata":   map[string]interface{}{"name": "oracle", "namespace": "flux-system"},
		"spec":       map[string]interface{}{"postBuild": map[string]interface{}{"substitute": substitute}},
	}}
	out, err := kustomize.SubstituteVariables(context.Background(), nil, ks, res,
		kustomize.SubstituteWithDryRun(true),
		kustomize.SubstituteWithStrict(c.Strict),
		kustomize.SubstituteWithAlways(c.Always))
	if err != nil {
		return output{Error: err.Error()}
	}
	if out == nil {
		return output{Disabled: true}
	}
	j, err := out.MarshalJSON()
	if err != nil {
		return output{Error: "write: " + err.Error()}
	}
	return output{JSON: j}
}

func main() {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var cases []input
	if err := json.Unmarshal(data, &cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	outs := make([]output, 0, len(cases))
	for _, c := range cases {
		outs = append(outs, run(c))
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(outs); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}
