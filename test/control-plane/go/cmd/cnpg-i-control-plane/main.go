// Command cnpg-i-control-plane runs a control plane for the tests of cdk8s-cnpg-i on loopback:
// an embedded etcd, kube-apiserver as a child process, the CustomResourceDefinitions of a
// directory installed for real, and CloudNativePG v1.30.0's own admission webhooks (its
// internal/webhook/v1 package, registered exactly as the operator's manager registers them)
// behind Validating/MutatingWebhookConfigurations that point at a loopback URL.
//
// It writes <state-dir>/ready.json once everything answers, and stops (children included) when
// SIGTERM/SIGINT arrives or when no lease in <state-dir>/leases is held any more (see leases.go).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	apiv1 "github.com/cloudnative-pg/cloudnative-pg/api/v1"
	webhookv1 "github.com/cloudnative-pg/cloudnative-pg/internal/webhook/v1"
)

type readyFile struct {
	Server      string `json:"server"`
	CA          string `json:"ca"`
	Cert        string `json:"cert"`
	Key         string `json:"key"`
	Pid         int    `json:"pid"`
	APIServer   int    `json:"apiserverPid"`
	WebhookPort int    `json:"webhookPort"`
	EtcdURL     string `json:"etcd"`
	CRDs        int    `json:"crds"`
	StartupMs   int64  `json:"startupMs"`
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "cnpg-i-control-plane: "+format+"\n", args...)
	os.Exit(1)
}

func main() {
	stateDir := flag.String("state-dir", "", "directory for PKI, etcd data, logs, leases and ready.json")
	apiserverBin := flag.String("apiserver", "", "path to the kube-apiserver binary")
	crdDir := flag.String("crds", "", "directory of CustomResourceDefinition YAML files to install")
	idle := flag.Duration("idle", 5*time.Second, "stop after this long without a live lease")
	flag.Parse()
	if *stateDir == "" || *apiserverBin == "" || *crdDir == "" {
		fail("--state-dir, --apiserver and --crds are required")
	}
	start := time.Now()
	ctx, cancel := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer cancel()
	ctrl.SetLogger(zap.New(zap.WriteTo(os.Stderr)))

	pkiDir := filepath.Join(*stateDir, "pki")
	p, err := newPKI(pkiDir)
	if err != nil {
		fail("PKI: %v", err)
	}
	for _, c := range []struct {
		name, cn string
		orgs     []string
		server   bool
	}{
		{"apiserver", "kube-apiserver", nil, true},
		{"webhook", "cnpg-webhook", nil, true},
		{"admin", "cdk8s-cnpg-i-test-admin", []string{"system:masters"}, false},
	} {
		if err := p.issue(c.name, c.cn, c.orgs, c.server); err != nil {
			fail("PKI %s: %v", c.name, err)
		}
	}
	if err := p.serviceAccountKey(); err != nil {
		fail("PKI service account key: %v", err)
	}

	ports := make([]int, 4)
	for i := range ports {
		if ports[i], err = freePort(); err != nil {
			fail("free port: %v", err)
		}
	}
	etcdClient, etcdPeer, apiPort, webhookPort := ports[0], ports[1], ports[2], ports[3]

	// etcd, embedded: plain HTTP on 127.0.0.1 only, data in the state directory.
	cfg := embed.NewConfig()
	cfg.Name = "cnpg-i-test"
	cfg.Dir = filepath.Join(*stateDir, "etcd")
	cfg.LogLevel = "error"
	cfg.UnsafeNoFsync = true
	clientURL := url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(etcdClient)}
	peerURL := url.URL{Scheme: "http", Host: "127.0.0.1:" + strconv.Itoa(etcdPeer)}
	cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{clientURL}, []url.URL{clientURL}
	cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peerURL}, []url.URL{peerURL}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	etcd, err := embed.StartEtcd(cfg)
	if err != nil {
		fail("etcd: %v", err)
	}
	defer etcd.Close()
	select {
	case <-etcd.Server.ReadyNotify():
	case <-time.After(60 * time.Second):
		fail("etcd did not become ready in 60s")
	}

	admissionConfig := filepath.Join(*stateDir, "admission.yaml")
	if err := os.WriteFile(admissionConfig, []byte(podSecurityConfig), 0o600); err != nil {
		fail("admission config: %v", err)
	}
	logFile, err := os.Create(filepath.Join(*stateDir, "kube-apiserver.log"))
	if err != nil {
		fail("log: %v", err)
	}
	pk := func(f string) string { return filepath.Join(pkiDir, f) }
	api := exec.Command(*apiserverBin,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(apiPort),
		"--etcd-servers="+clientURL.String(),
		"--tls-cert-file="+pk("apiserver.crt"),
		"--tls-private-key-file="+pk("apiserver.key"),
		"--client-ca-file="+pk("ca.crt"),
		"--service-account-key-file="+pk("sa.pub"),
		"--service-account-signing-key-file="+pk("sa.key"),
		"--service-account-issuer=https://kubernetes.default.svc",
		"--service-cluster-ip-range=10.96.0.0/16",
		"--authorization-mode=RBAC",
		"--admission-control-config-file="+admissionConfig,
		"--allow-privileged=false",
		"--endpoint-reconciler-type=none",
		"--profiling=false",
		"--v=1",
	)
	api.Stdout, api.Stderr = logFile, logFile
	api.SysProcAttr = childAttr()
	if err := api.Start(); err != nil {
		fail("kube-apiserver: %v", err)
	}
	apiDone := make(chan struct{})
	go func() { _ = api.Wait(); close(apiDone) }()
	stopAPI := func() {
		_ = api.Process.Signal(syscall.SIGTERM)
		select {
		case <-apiDone:
		case <-time.After(15 * time.Second):
			_ = api.Process.Kill()
			<-apiDone
		}
	}
	defer stopAPI()

	restCfg := &rest.Config{
		Host:            "https://127.0.0.1:" + strconv.Itoa(apiPort),
		TLSClientConfig: rest.TLSClientConfig{CAFile: pk("ca.crt"), CertFile: pk("admin.crt"), KeyFile: pk("admin.key")},
		QPS:             200,
		Burst:           400,
	}
	if err := waitReady(ctx, restCfg, apiDone, 180*time.Second); err != nil {
		fail("kube-apiserver: %v (log: %s)", err, logFile.Name())
	}
	crds, err := installCRDs(ctx, restCfg, *crdDir)
	if err != nil {
		fail("CRDs: %v", err)
	}

	// CloudNativePG's webhooks, set up by the operator's own functions on a controller-runtime
	// manager (internal/cmd/manager/controller/controller.go: setupWebhooks, v1.30.0).
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		fail("scheme: %v", err)
	}
	if err := apiv1.AddToScheme(scheme); err != nil {
		fail("scheme: %v", err)
	}
	mgr, err := ctrl.NewManager(restCfg, ctrl.Options{
		Scheme:                 scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: "127.0.0.1", Port: webhookPort, CertDir: pkiDir, CertName: "webhook.crt", KeyName: "webhook.key",
		}),
	})
	if err != nil {
		fail("manager: %v", err)
	}
	for _, setup := range []func(ctrl.Manager) error{
		webhookv1.SetupClusterWebhookWithManager,
		webhookv1.SetupBackupWebhookWithManager,
		webhookv1.SetupScheduledBackupWebhookWithManager,
		webhookv1.SetupPoolerWebhookWithManager,
		webhookv1.SetupDatabaseWebhookWithManager,
	} {
		if err := setup(mgr); err != nil {
			fail("webhook setup: %v", err)
		}
	}
	mgrCtx, stopMgr := context.WithCancel(ctx)
	mgrDone := make(chan error, 1)
	go func() { mgrDone <- mgr.Start(mgrCtx) }()
	if err := waitWebhookServer(ctx, mgr, mgrDone, 60*time.Second); err != nil {
		fail("webhook server: %v", err)
	}
	if err := registerWebhooks(ctx, restCfg, webhookPort, p.caPEM); err != nil {
		fail("webhook configurations: %v", err)
	}

	ready := readyFile{
		Server: restCfg.Host, CA: pk("ca.crt"), Cert: pk("admin.crt"), Key: pk("admin.key"),
		Pid: os.Getpid(), APIServer: api.Process.Pid, WebhookPort: webhookPort, EtcdURL: clientURL.String(),
		CRDs: crds, StartupMs: time.Since(start).Milliseconds(),
	}
	data, _ := json.MarshalIndent(ready, "", "  ")
	readyPath := filepath.Join(*stateDir, "ready.json")
	if err := os.WriteFile(readyPath+".tmp", data, 0o600); err != nil {
		fail("ready.json: %v", err)
	}
	if err := os.Rename(readyPath+".tmp", readyPath); err != nil {
		fail("ready.json: %v", err)
	}
	fmt.Fprintf(os.Stderr, "cnpg-i-control-plane: ready at %s in %s\n", restCfg.Host, time.Since(start).Round(time.Millisecond))

	reason := waitLeases(ctx, filepath.Join(*stateDir, "leases"), *idle, apiDone, mgrDone)
	fmt.Fprintf(os.Stderr, "cnpg-i-control-plane: stopping (%s)\n", reason)
	_ = os.Remove(readyPath)
	stopMgr()
	stopAPI()
	etcd.Close()
	_ = os.RemoveAll(cfg.Dir)
}

// podSecurityConfig enforces the restricted Pod Security Standard in every namespace but
// kube-system, and warns and audits at the same level.
const podSecurityConfig = `apiVersion: apiserver.config.k8s.io/v1
kind: AdmissionConfiguration
plugins:
- name: PodSecurity
  configuration:
    apiVersion: pod-security.admission.config.k8s.io/v1
    kind: PodSecurityConfiguration
    defaults:
      enforce: restricted
      enforce-version: latest
      audit: restricted
      audit-version: latest
      warn: restricted
      warn-version: latest
    exemptions:
      usernames: []
      runtimeClasses: []
      namespaces: [kube-system]
`
