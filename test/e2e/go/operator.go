package main

// The operator peer: dials a plugin the way CloudNativePG's plugin controller does.
// tls.Config{ServerName: the pluginServerName annotation or the short Service name,
// RootCAs: the server Secret's tls.crt, Certificates: [the client Secret's tls.crt + tls.key],
// MinVersion: TLS 1.3}; ca.crt of either Secret is never read. The TCP address is separate
// from the name that is verified, as in the cluster (the operator dials the Service's DNS name).
//
// It makes one gRPC-shaped call (Identity.GetPluginMetadata) over HTTP/2 (h2client.go) and prints one JSON
// line: {"ok":true,...} or {"ok":false,"error":"<the error the operator would log>"}.

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"time"
)

type operatorResult struct {
	OK          bool     `json:"ok"`
	Error       string   `json:"error,omitempty"`
	Stage       string   `json:"stage,omitempty"`
	PluginName  string   `json:"pluginName,omitempty"`
	TLSVersion  string   `json:"tlsVersion,omitempty"`
	ALPN        string   `json:"alpn,omitempty"`
	ServerName  string   `json:"serverName,omitempty"`
	PeerSubject string   `json:"peerSubject,omitempty"`
	PeerDNS     []string `json:"peerDnsNames,omitempty"`
}

func runOperator(args []string) error {
	fs := flag.NewFlagSet("operator", flag.ContinueOnError)
	serverSecret := fs.String("server-secret-dir", "", "directory of the Secret named by cnpg.io/pluginServerSecret")
	clientSecret := fs.String("client-secret-dir", "", "directory of the Secret named by cnpg.io/pluginClientSecret")
	serverName := fs.String("server-name", "", "cnpg.io/pluginServerName, else the short Service name")
	address := fs.String("address", "", "host:port to dial")
	timeout := fs.Duration("timeout", 10*time.Second, "overall timeout")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *serverSecret == "" || *clientSecret == "" || *serverName == "" || *address == "" {
		return errors.New("--server-secret-dir, --client-secret-dir, --server-name and --address are required")
	}
	res := dialPlugin(*serverSecret, *clientSecret, *serverName, *address, *timeout)
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
	if !res.OK {
		os.Exit(1)
	}
	return nil
}

func fail(stage string, err error) operatorResult {
	return operatorResult{OK: false, Stage: stage, Error: err.Error()}
}

func dialPlugin(serverSecret, clientSecret, serverName, address string, timeout time.Duration) operatorResult {
	// The operator's InvalidServerCertificate / InvalidClientCertificate events come from here.
	rootPEM, err := os.ReadFile(filepath.Join(serverSecret, "tls.crt"))
	if err != nil {
		return fail("server-secret", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(rootPEM) {
		return fail("server-secret", errors.New("failed to parse the server Secret's tls.crt"))
	}
	clientPair, err := tls.LoadX509KeyPair(filepath.Join(clientSecret, "tls.crt"), filepath.Join(clientSecret, "tls.key"))
	if err != nil {
		return fail("client-secret", err)
	}
	cfg := &tls.Config{
		ServerName:   serverName,
		RootCAs:      roots,
		Certificates: []tls.Certificate{clientPair},
		MinVersion:   tls.VersionTLS13,
		// gRPC's client credentials add h2.
		NextProtos: []string{"h2"},
	}

	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	raw, err := (&net.Dialer{}).DialContext(ctx, "tcp", address)
	if err != nil {
		return fail("dial", err)
	}
	defer raw.Close()
	if deadline, ok := ctx.Deadline(); ok {
		_ = raw.SetDeadline(deadline)
	}
	conn := tls.Client(raw, cfg)
	if err := conn.HandshakeContext(ctx); err != nil {
		return fail("handshake", err)
	}
	state := conn.ConnectionState()
	res := operatorResult{
		ServerName: serverName,
		TLSVersion: tlsVersionName(state.Version),
		ALPN:       state.NegotiatedProtocol,
	}
	if len(state.PeerCertificates) > 0 {
		res.PeerSubject = state.PeerCertificates[0].Subject.String()
		res.PeerDNS = state.PeerCertificates[0].DNSNames
	}
	// gRPC refuses a server that did not select h2 by ALPN.
	if state.NegotiatedProtocol != "h2" {
		return fail("call", fmt.Errorf("credentials: cannot check peer: missing selected ALPN property (got %q)", state.NegotiatedProtocol))
	}
	// The URL authority names the server, while the connection goes to address.
	msg, err := unaryCall(conn, net.JoinHostPort(serverName, portOf(address)), getPluginMetadataPath, nil)
	if err != nil {
		// A TLS 1.3 server checks the client certificate after the client's handshake has
		// returned, so a rejection surfaces here, on the first read.
		return fail("call", err)
	}
	name, err := protoString(msg, 1)
	if err != nil {
		return fail("call", err)
	}
	res.OK = true
	res.PluginName = name
	return res
}

func portOf(address string) string {
	_, port, err := net.SplitHostPort(address)
	if err != nil {
		return "0"
	}
	return port
}

func tlsVersionName(v uint16) string {
	switch v {
	case tls.VersionTLS13:
		return "TLS 1.3"
	case tls.VersionTLS12:
		return "TLS 1.2"
	}
	return fmt.Sprintf("0x%04x", v)
}
