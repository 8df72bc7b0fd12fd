package main

// The plugin peer: a TLS server configured the way cnpg-i-machinery's pluginhelper/http
// configures a CNPG-I plugin in TCP mode (flags --server-cert, --server-key, --client-cert,
// --server-address; ClientAuth RequireAndVerifyClientCert with the --client-cert PEM as the
// only client CAs; TLS 1.3 minimum; files read again for every new connection), serving HTTP/2
// with a gRPC-shaped Identity.GetPluginMetadata.
//
// Handshake failures are logged by net/http as
// `http: TLS handshake error from <addr>: <error>`, the line a plugin's log shows in production.

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
)

type pluginFlags struct {
	serverCert, serverKey, clientCert, serverAddress, pluginPath string
	positional, unknown                                          []string
}

// parsePluginArgs accepts what cobra/pflag accept for these flags (`--flag=value` and
// `--flag value`), keeps positional arguments (hello-world runs `plugin --server-cert=...`)
// and ignores other flags of the plugin's own.
func parsePluginArgs(args []string) (pluginFlags, error) {
	var f pluginFlags
	known := map[string]*string{
		"server-cert":    &f.serverCert,
		"server-key":     &f.serverKey,
		"client-cert":    &f.clientCert,
		"server-address": &f.serverAddress,
		"plugin-path":    &f.pluginPath,
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "--") {
			f.positional = append(f.positional, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(a, "--"), "=")
		dst, ok := known[name]
		if !ok {
			f.unknown = append(f.unknown, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return f, fmt.Errorf("flag --%s needs a value", name)
			}
			i++
			value = args[i]
		}
		*dst = value
	}
	if f.pluginPath != "" && f.serverCert != "" {
		return f, errors.New("--plugin-path and --server-cert are mutually exclusive")
	}
	var missing []string
	for _, n := range []string{"server-cert", "server-key", "client-cert", "server-address"} {
		if *known[n] == "" {
			missing = append(missing, "--"+n)
		}
	}
	if len(missing) > 0 {
		return f, fmt.Errorf("TCP mode needs %s", strings.Join(missing, ", "))
	}
	return f, nil
}

// loadServerTLS reads the three files as the plugin does on each connection.
func loadServerTLS(f pluginFlags) (*tls.Config, error) {
	cert, err := tls.LoadX509KeyPair(f.serverCert, f.serverKey)
	if err != nil {
		return nil, fmt.Errorf("failed to load server cert from %s and %s: %w", f.serverCert, f.serverKey, err)
	}
	caPEM, err := os.ReadFile(filepath.Clean(f.clientCert))
	if err != nil {
		return nil, fmt.Errorf("failed to read client CA from %s: %w", f.clientCert, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return nil, fmt.Errorf("failed to parse client CA from %s", f.clientCert)
	}
	return &tls.Config{
		Certificates: []tls.Certificate{cert},
		ClientCAs:    pool,
		ClientAuth:   tls.RequireAndVerifyClientCert,
		MinVersion:   tls.VersionTLS13,
		// gRPC's server credentials add h2 to whatever config a connection gets.
		NextProtos: []string{"h2"},
	}, nil
}

func runPlugin(args []string) error {
	f, err := parsePluginArgs(args)
	if err != nil {
		return err
	}
	logger := log.New(os.Stderr, "plugin: ", 0)
	if len(f.unknown) > 0 {
		logger.Printf("ignoring the plugin's own flags %v", f.unknown)
	}
	// Fail at start-up on unreadable files, as the plugin does.
	if _, err := loadServerTLS(f); err != nil {
		return err
	}
	base := &tls.Config{
		MinVersion: tls.VersionTLS13,
		GetConfigForClient: func(*tls.ClientHelloInfo) (*tls.Config, error) {
			return loadServerTLS(f)
		},
	}
	ln, err := net.Listen("tcp", f.serverAddress)
	if err != nil {
		return err
	}
	pluginName := os.Getenv("CNPGI_E2E_PLUGIN_NAME")
	if pluginName == "" {
		pluginName = "e2e.cnpg-i.example.com"
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		serveGrpc(w, r, pluginName, logger)
	})
	srv := &http.Server{Handler: mux, ErrorLog: logger}
	// The test reads this line to learn the port when --server-address asked for port 0.
	fmt.Printf("serving on %s\n", ln.Addr().String())
	return srv.Serve(tls.NewListener(ln, base))
}

func serveGrpc(w http.ResponseWriter, r *http.Request, pluginName string, logger *log.Logger) {
	if r.ProtoMajor != 2 || r.Method != http.MethodPost || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/grpc") {
		http.Error(w, "gRPC over HTTP/2 only", http.StatusUnsupportedMediaType)
		return
	}
	w.Header().Set("Content-Type", "application/grpc")
	w.Header().Set("Trailer", "Grpc-Status, Grpc-Message")
	if r.URL.Path != getPluginMetadataPath {
		w.WriteHeader(http.StatusOK)
		w.Header().Set("Grpc-Status", "12")
		w.Header().Set("Grpc-Message", "unknown method "+r.URL.Path)
		return
	}
	if _, err := readGrpcFrame(r.Body); err != nil {
		w.WriteHeader(http.StatusOK)
		w.Header().Set("Grpc-Status", "13")
		w.Header().Set("Grpc-Message", err.Error())
		return
	}
	peer := "?"
	if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
		peer = r.TLS.PeerCertificates[0].Subject.String()
	}
	logger.Printf("GetPluginMetadata from client certificate %q", peer)
	// cnpgi.identity.v1.GetPluginMetadataResponse: name = 1, version = 2, display_name = 3.
	msg := protoStrings([][2]interface{}{{1, pluginName}, {2, "0.0.0-e2e"}, {3, "cdk8s-cnpg-i e2e peer"}})
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(grpcFrame(msg))
	w.Header().Set("Grpc-Status", "0")
	w.Header().Set("Grpc-Message", "")
}
