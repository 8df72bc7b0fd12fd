package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
)

// waitReady polls the API server's /readyz until it answers 200.
func waitReady(ctx context.Context, cfg *rest.Config, exited <-chan struct{}, limit time.Duration) error {
	client, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(limit)
	last := "no answer"
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("exited before it was ready")
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		resp, err := client.Get(cfg.Host + "/readyz")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = fmt.Sprintf("%d %s", resp.StatusCode, strings.TrimSpace(string(body)))
		} else {
			last = err.Error()
		}
		time.Sleep(250 * time.Millisecond)
	}
	return fmt.Errorf("not ready after %s: %s", limit, last)
}

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// installCRDs creates every CustomResourceDefinition found in the YAML files of dir (sorted by
// name) and waits until each is Established.
func installCRDs(ctx context.Context, cfg *rest.Config, dir string) (int, error) {
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return 0, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return 0, err
	}
	sort.Strings(files)
	var names []string
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return 0, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(f, 1<<16)
		for {
			obj := map[string]any{}
			if err := dec.Decode(&obj); err != nil {
				f.Close()
				if errors.Is(err, io.EOF) {
					break
				}
				return 0, fmt.Errorf("%s: %w", file, err)
			}
			u := &unstructured.Unstructured{Object: obj}
			if u.GetKind() != "CustomResourceDefinition" {
				continue
			}
			if _, err := dyn.Resource(crdResource).Create(ctx, u, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				return 0, fmt.Errorf("%s: %s: %w", file, u.GetName(), err)
			}
			names = append(names, u.GetName())
		}
	}
	if len(names) == 0 {
		return 0, fmt.Errorf("no CustomResourceDefinition in %s", dir)
	}
	deadline := time.Now().Add(60 * time.Second)
	for _, name := range names {
		for {
			u, err := dyn.Resource(crdResource).Get(ctx, name, metav1.GetOptions{})
			if err == nil && established(u) {
				break
			}
			if time.Now().After(deadline) {
				return 0, fmt.Errorf("%s not Established after 60s (%v)", name, err)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return len(names), nil
}

func established(u *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if ok && m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}

// waitWebhookServer waits until the manager's webhook server accepts TLS connections.
func waitWebhookServer(ctx context.Context, mgr ctrl.Manager, mgrDone <-chan error, limit time.Duration) error {
	check := mgr.GetWebhookServer().StartedChecker()
	deadline := time.Now().Add(limit)
	for {
		select {
		case err := <-mgrDone:
			return fmt.Errorf("manager stopped: %v", err)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		err := check(nil)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return err
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cnpgWebhook is one of the operator's webhooks, as its kubebuilder markers declare it
// (internal/webhook/v1/*_webhook.go at v1.30.0); the Pooler has a validating webhook only.
type cnpgWebhook struct {
	name, resource, path string
	mutating             bool
}

func cnpgWebhooks() []cnpgWebhook {
	var out []cnpgWebhook
	for _, kind := range []string{"backup", "cluster", "database", "pooler", "scheduledbackup"} {
		if kind != "pooler" {
			out = append(out, cnpgWebhook{"m" + kind + ".cnpg.io", kind + "s", "/mutate-postgresql-cnpg-io-v1-" + kind, true})
		}
		out = append(out, cnpgWebhook{"v" + kind + ".cnpg.io", kind + "s", "/validate-postgresql-cnpg-io-v1-" + kind, false})
	}
	return out
}

// registerWebhooks creates the operator's two webhook configurations (names and rules as in its
// release manifest) with a loopback URL and this control plane's CA instead of a Service.
func registerWebhooks(ctx context.Context, cfg *rest.Config, port int, caPEM []byte) error {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	fail := admissionregistrationv1.Fail
	none := admissionregistrationv1.SideEffectClassNone
	timeout := int32(10)
	mutating := &admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "cnpg-mutating-webhook-configuration"}}
	validating := &admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "cnpg-validating-webhook-configuration"}}
	for _, w := range cnpgWebhooks() {
		u := "https://127.0.0.1:" + strconv.Itoa(port) + w.path
		cc := admissionregistrationv1.WebhookClientConfig{URL: &u, CABundle: caPEM}
		rules := []admissionregistrationv1.RuleWithOperations{{
			Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
			Rule:       admissionregistrationv1.Rule{APIGroups: []string{"postgresql.cnpg.io"}, APIVersions: []string{"v1"}, Resources: []string{w.resource}},
		}}
		if w.mutating {
			mutating.Webhooks = append(mutating.Webhooks, admissionregistrationv1.MutatingWebhook{
				Name: w.name, ClientConfig: cc, Rules: rules, FailurePolicy: &fail, SideEffects: &none,
				AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: &timeout,
			})
		} else {
			validating.Webhooks = append(validating.Webhooks, admissionregistrationv1.ValidatingWebhook{
				Name: w.name, ClientConfig: cc, Rules: rules, FailurePolicy: &fail, SideEffects: &none,
				AdmissionReviewVersions: []string{"v1"}, TimeoutSeconds: &timeout,
			})
		}
	}
	if _, err := cs.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(ctx, mutating, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	if _, err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Create(ctx, validating, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	return nil
}
