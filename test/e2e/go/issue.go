package main

// The issuer does, for the objects it is given, what cert-manager's controllers do: it resolves
// every Certificate's issuerRef, issues the certificate and writes the Secret it names as a
// directory `<secretsDir>/<secretName>/{tls.crt,tls.key,ca.crt}` (the files a Secret volume shows).
//
// Faithful to cert-manager v1 where it matters for a handshake:
//   - SelfSigned issuer: signed by the Certificate's own key; ca.crt = the certificate itself.
//   - CA issuer: signed by the key in the CA Secret; tls.crt = leaf (+ intermediates), ca.crt = the
//     root of the CA Secret's chain.
//   - subject from commonName and spec.subject; SANs from dnsNames, ipAddresses, uris,
//     emailAddresses; no SAN is ever derived from the commonName.
//   - usages: key usages and extended key usages as cert-manager maps them, default
//     [digital signature, key encipherment]; isCA adds cert sign and BasicConstraints CA:TRUE.
//   - privateKey: RSA (default, 2048), ECDSA (256 default, 384, 521), Ed25519; PKCS1 or PKCS8.
//   - duration (default 2160h) and the webhook's validation of the fields above.
// Issuers that need the outside world (ACME, Vault, ...) are refused. Issuers that the input
// names but does not contain can be declared as CA issuers backed by a Secret (caIssuers).

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

type objectMeta struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

type issuerRef struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Group string `json:"group"`
}

type certificateSpec struct {
	SecretName     string   `json:"secretName"`
	CommonName     string   `json:"commonName"`
	DNSNames       []string `json:"dnsNames"`
	IPAddresses    []string `json:"ipAddresses"`
	URIs           []string `json:"uris"`
	EmailAddresses []string `json:"emailAddresses"`
	LiteralSubject string   `json:"literalSubject"`
	Subject        *struct {
		Organizations       []string `json:"organizations"`
		Countries           []string `json:"countries"`
		OrganizationalUnits []string `json:"organizationalUnits"`
		Localities          []string `json:"localities"`
		Provinces           []string `json:"provinces"`
		StreetAddresses     []string `json:"streetAddresses"`
		PostalCodes         []string `json:"postalCodes"`
		SerialNumber        string   `json:"serialNumber"`
	} `json:"subject"`
	Duration    string   `json:"duration"`
	RenewBefore string   `json:"renewBefore"`
	IsCA        bool     `json:"isCA"`
	Usages      []string `json:"usages"`
	PrivateKey  *struct {
		Algorithm      string `json:"algorithm"`
		Size           int    `json:"size"`
		Encoding       string `json:"encoding"`
		RotationPolicy string `json:"rotationPolicy"`
	} `json:"privateKey"`
	IssuerRef issuerRef `json:"issuerRef"`
}

type issuerSpec struct {
	SelfSigned *struct{} `json:"selfSigned"`
	CA         *struct {
		SecretName string `json:"secretName"`
	} `json:"ca"`
}

type manifest struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Metadata   objectMeta      `json:"metadata"`
	Spec       json.RawMessage `json:"spec"`
}

// caIssuer declares an issuer that is not among the objects (IssuerRef.issuer('corp-ca') of a
// user who runs their own CA) as a CA issuer whose key pair is in secretsDir/secretName.
type caIssuer struct {
	Group      string `json:"group"`
	Kind       string `json:"kind"`
	Name       string `json:"name"`
	SecretName string `json:"secretName"`
}

type issuePlan struct {
	Namespace  string     `json:"namespace"`
	SecretsDir string     `json:"secretsDir"`
	Objects    []manifest `json:"objects"`
	CAIssuers  []caIssuer `json:"caIssuers"`
}

type issuedReport struct {
	Certificate string    `json:"certificate"`
	SecretName  string    `json:"secretName"`
	Issuer      string    `json:"issuer"`
	Subject     string    `json:"subject"`
	DNSNames    []string  `json:"dnsNames"`
	KeyType     string    `json:"keyType"`
	IsCA        bool      `json:"isCA"`
	NotBefore   time.Time `json:"notBefore"`
	NotAfter    time.Time `json:"notAfter"`
}

type resolvedIssuer struct {
	label      string
	selfSigned bool
	caSecret   string
}

func runIssue(args []string) error {
	var in io.Reader = os.Stdin
	if len(args) == 1 {
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	} else if len(args) > 1 {
		return errors.New("usage: cnpgi-e2e issue [plan.json]")
	}
	var plan issuePlan
	dec := json.NewDecoder(in)
	if err := dec.Decode(&plan); err != nil {
		return fmt.Errorf("reading the plan: %w", err)
	}
	if plan.SecretsDir == "" {
		return errors.New("plan.secretsDir is required")
	}
	if plan.Namespace == "" {
		plan.Namespace = "default"
	}
	reports, err := issueAll(plan)
	if err != nil {
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(reports)
}

func nsOf(m objectMeta, def string) string {
	if m.Namespace != "" {
		return m.Namespace
	}
	return def
}

func issueAll(plan issuePlan) ([]issuedReport, error) {
	type pendingCert struct {
		id   string
		ns   string
		spec certificateSpec
	}
	issuers := map[string]resolvedIssuer{} // key: group|kind|namespace|name
	var pending []pendingCert
	for _, o := range plan.Objects {
		group := strings.SplitN(o.APIVersion, "/", 2)[0]
		if group != "cert-manager.io" {
			continue
		}
		switch o.Kind {
		case "Issuer", "ClusterIssuer":
			var spec issuerSpec
			if err := json.Unmarshal(o.Spec, &spec); err != nil {
				return nil, fmt.Errorf("%s %s: %w", o.Kind, o.Metadata.Name, err)
			}
			ns := ""
			if o.Kind == "Issuer" {
				ns = nsOf(o.Metadata, plan.Namespace)
			}
			r := resolvedIssuer{label: o.Kind + "/" + o.Metadata.Name}
			switch {
			case spec.SelfSigned != nil && spec.CA == nil:
				r.selfSigned = true
			case spec.CA != nil && spec.SelfSigned == nil:
				if spec.CA.SecretName == "" {
					return nil, fmt.Errorf("%s: spec.ca.secretName is required", r.label)
				}
				r.caSecret = spec.CA.SecretName
			default:
				return nil, fmt.Errorf("%s: only selfSigned and ca issuers can be issued offline (exactly one must be set)", r.label)
			}
			issuers[issuerKey("cert-manager.io", o.Kind, ns, o.Metadata.Name)] = r
		case "Certificate":
			var spec certificateSpec
			if err := json.Unmarshal(o.Spec, &spec); err != nil {
				return nil, fmt.Errorf("Certificate %s: %w", o.Metadata.Name, err)
			}
			ns := nsOf(o.Metadata, plan.Namespace)
			pending = append(pending, pendingCert{id: "Certificate/" + ns + "/" + o.Metadata.Name, ns: ns, spec: spec})
		}
	}
	for _, c := range plan.CAIssuers {
		group := c.Group
		if group == "" {
			group = "cert-manager.io"
		}
		kind := c.Kind
		if kind == "" {
			kind = "Issuer"
		}
		ns := ""
		if kind == "Issuer" {
			ns = plan.Namespace
		}
		issuers[issuerKey(group, kind, ns, c.Name)] = resolvedIssuer{label: kind + "/" + c.Name + " (outside the manifests)", caSecret: c.SecretName}
	}
	for _, p := range pending {
		if err := validateCertificate(p.spec); err != nil {
			return nil, fmt.Errorf("%s is rejected by the cert-manager webhook: %w", p.id, err)
		}
	}

	// A CA Issuer becomes ready only once its Secret exists, which may itself be written by a
	// Certificate in the input: issue in rounds until nothing more can be issued.
	var reports []issuedReport
	for len(pending) > 0 {
		var next []pendingCert
		progress := false
		for _, p := range pending {
			ref := p.spec.IssuerRef
			group, kind := ref.Group, ref.Kind
			if group == "" {
				group = "cert-manager.io"
			}
			if kind == "" {
				kind = "Issuer"
			}
			ns := ""
			if kind == "Issuer" {
				ns = p.ns
			}
			iss, ok := issuers[issuerKey(group, kind, ns, ref.Name)]
			if !ok {
				return nil, fmt.Errorf("%s: issuerRef %s %s/%s is not in the input and was not declared as a CA issuer; cert-manager would leave it pending", p.id, group, kind, ref.Name)
			}
			if !iss.selfSigned && !secretExists(plan.SecretsDir, iss.caSecret) {
				next = append(next, p)
				continue
			}
			rep, err := issueOne(plan.SecretsDir, p.spec, iss)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", p.id, err)
			}
			rep.Certificate = p.id
			reports = append(reports, rep)
			progress = true
		}
		if !progress {
			var stuck []string
			for _, p := range next {
				stuck = append(stuck, p.id)
			}
			return nil, fmt.Errorf("never ready (their CA issuer's Secret is written by nothing): %s", strings.Join(stuck, ", "))
		}
		pending = next
	}
	return reports, nil
}

func issuerKey(group, kind, ns, name string) string {
	return group + "|" + kind + "|" + ns + "|" + name
}

func secretExists(dir, name string) bool {
	for _, f := range []string{"tls.crt", "tls.key"} {
		if _, err := os.Stat(filepath.Join(dir, name, f)); err != nil {
			return false
		}
	}
	return true
}

var keyUsageNames = map[string]x509.KeyUsage{
	"signing":            x509.KeyUsageDigitalSignature,
	"digital signature":  x509.KeyUsageDigitalSignature,
	"content commitment": x509.KeyUsageContentCommitment,
	"key encipherment":   x509.KeyUsageKeyEncipherment,
	"key agreement":      x509.KeyUsageKeyAgreement,
	"data encipherment":  x509.KeyUsageDataEncipherment,
	"cert sign":          x509.KeyUsageCertSign,
	"crl sign":           x509.KeyUsageCRLSign,
	"encipher only":      x509.KeyUsageEncipherOnly,
	"decipher only":      x509.KeyUsageDecipherOnly,
}

var extKeyUsageNames = map[string]x509.ExtKeyUsage{
	"any":              x509.ExtKeyUsageAny,
	"server auth":      x509.ExtKeyUsageServerAuth,
	"client auth":      x509.ExtKeyUsageClientAuth,
	"code signing":     x509.ExtKeyUsageCodeSigning,
	"email protection": x509.ExtKeyUsageEmailProtection,
	"s/mime":           x509.ExtKeyUsageEmailProtection,
	"ipsec end system": x509.ExtKeyUsageIPSECEndSystem,
	"ipsec tunnel":     x509.ExtKeyUsageIPSECTunnel,
	"ipsec user":       x509.ExtKeyUsageIPSECUser,
	"timestamping":     x509.ExtKeyUsageTimeStamping,
	"ocsp signing":     x509.ExtKeyUsageOCSPSigning,
	"microsoft sgc":    x509.ExtKeyUsageMicrosoftServerGatedCrypto,
	"netscape sgc":     x509.ExtKeyUsageNetscapeServerGatedCrypto,
}

func usagesOf(spec certificateSpec) (x509.KeyUsage, []x509.ExtKeyUsage, error) {
	var ku x509.KeyUsage
	var eku []x509.ExtKeyUsage
	if spec.IsCA {
		ku |= x509.KeyUsageCertSign
	}
	usages := spec.Usages
	if len(usages) == 0 {
		usages = []string{"digital signature", "key encipherment"}
	}
	for _, u := range usages {
		if k, ok := keyUsageNames[u]; ok {
			ku |= k
		} else if e, ok := extKeyUsageNames[u]; ok {
			eku = append(eku, e)
		} else {
			return 0, nil, fmt.Errorf("unknown usage %q", u)
		}
	}
	return ku, eku, nil
}

func durationOf(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	return time.ParseDuration(s)
}

// validateCertificate applies the cert-manager webhook rules that the synthesized objects can trip.
func validateCertificate(spec certificateSpec) error {
	if spec.SecretName == "" {
		return errors.New("spec.secretName: Required value")
	}
	if spec.IssuerRef.Name == "" {
		return errors.New("spec.issuerRef.name: Required value")
	}
	if spec.CommonName == "" && len(spec.DNSNames) == 0 && len(spec.URIs) == 0 &&
		len(spec.EmailAddresses) == 0 && len(spec.IPAddresses) == 0 && spec.LiteralSubject == "" {
		return errors.New("at least one of commonName (from the commonName field or from a literalSubject), dnsNames, uriSANs, ipAddresses, emailSANs or otherNames must be set")
	}
	if spec.LiteralSubject != "" {
		return errors.New("spec.literalSubject is not supported by the e2e issuer")
	}
	if len(spec.CommonName) > 64 {
		return fmt.Errorf("spec.commonName: Too long: may not be more than 64 bytes")
	}
	if _, _, err := usagesOf(spec); err != nil {
		return fmt.Errorf("spec.usages: %w", err)
	}
	d, err := durationOf(spec.Duration, 2160*time.Hour)
	if err != nil {
		return fmt.Errorf("spec.duration: %w", err)
	}
	if d < time.Hour {
		return fmt.Errorf("spec.duration: Invalid value: %q: certificate duration must be greater than 1h0m0s", spec.Duration)
	}
	if spec.RenewBefore != "" {
		rb, err := time.ParseDuration(spec.RenewBefore)
		if err != nil {
			return fmt.Errorf("spec.renewBefore: %w", err)
		}
		if rb < 5*time.Minute {
			return fmt.Errorf("spec.renewBefore: Invalid value: %q: certificate renewBefore must be greater than 5m0s", spec.RenewBefore)
		}
		if rb >= d {
			return fmt.Errorf("spec.renewBefore: Invalid value: %q: certificate duration %s must be greater than renewBefore %s", spec.RenewBefore, d, rb)
		}
	}
	if spec.PrivateKey != nil {
		pk := spec.PrivateKey
		switch strings.ToLower(pk.Algorithm) {
		case "", "rsa":
			if pk.Size != 0 && (pk.Size < 2048 || pk.Size > 8192) {
				return fmt.Errorf("spec.privateKey.size: Invalid value: %d: must be between 2048 & 8192 for rsa keyAlgorithm", pk.Size)
			}
		case "ecdsa":
			if pk.Size != 0 && pk.Size != 256 && pk.Size != 384 && pk.Size != 521 {
				return fmt.Errorf("spec.privateKey.size: Unsupported value: %d: supported values: \"256\", \"384\", \"521\"", pk.Size)
			}
		case "ed25519":
		default:
			return fmt.Errorf("spec.privateKey.algorithm: Unsupported value: %q", pk.Algorithm)
		}
		switch pk.Encoding {
		case "", "PKCS1", "PKCS8":
		default:
			return fmt.Errorf("spec.privateKey.encoding: Unsupported value: %q", pk.Encoding)
		}
		switch pk.RotationPolicy {
		case "", "Always", "Never":
		default:
			return fmt.Errorf("spec.privateKey.rotationPolicy: Unsupported value: %q", pk.RotationPolicy)
		}
	}
	return nil
}

func generateKey(spec certificateSpec) (crypto.Signer, string, error) {
	algo, size := "rsa", 0
	if spec.PrivateKey != nil {
		if spec.PrivateKey.Algorithm != "" {
			algo = strings.ToLower(spec.PrivateKey.Algorithm)
		}
		size = spec.PrivateKey.Size
	}
	switch algo {
	case "rsa":
		if size == 0 {
			size = 2048
		}
		k, err := rsa.GenerateKey(rand.Reader, size)
		return k, fmt.Sprintf("RSA-%d", size), err
	case "ecdsa":
		var curve elliptic.Curve
		switch size {
		case 0, 256:
			curve, size = elliptic.P256(), 256
		case 384:
			curve = elliptic.P384()
		case 521:
			curve = elliptic.P521()
		}
		k, err := ecdsa.GenerateKey(curve, rand.Reader)
		return k, fmt.Sprintf("ECDSA-%d", size), err
	case "ed25519":
		_, k, err := ed25519.GenerateKey(rand.Reader)
		return k, "Ed25519", err
	}
	return nil, "", fmt.Errorf("unsupported key algorithm %q", algo)
}

func encodeKey(key crypto.Signer, spec certificateSpec) ([]byte, error) {
	pkcs8 := spec.PrivateKey != nil && spec.PrivateKey.Encoding == "PKCS8"
	var block *pem.Block
	switch k := key.(type) {
	case *rsa.PrivateKey:
		if !pkcs8 {
			block = &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}
		}
	case *ecdsa.PrivateKey:
		if !pkcs8 {
			der, err := x509.MarshalECPrivateKey(k)
			if err != nil {
				return nil, err
			}
			block = &pem.Block{Type: "EC PRIVATE KEY", Bytes: der}
		}
	}
	if block == nil {
		der, err := x509.MarshalPKCS8PrivateKey(key)
		if err != nil {
			return nil, err
		}
		block = &pem.Block{Type: "PRIVATE KEY", Bytes: der}
	}
	return pem.EncodeToMemory(block), nil
}

func subjectOf(spec certificateSpec) pkix.Name {
	var n pkix.Name
	n.CommonName = spec.CommonName
	if s := spec.Subject; s != nil {
		n.Organization = s.Organizations
		n.Country = s.Countries
		n.OrganizationalUnit = s.OrganizationalUnits
		n.Locality = s.Localities
		n.Province = s.Provinces
		n.StreetAddress = s.StreetAddresses
		n.PostalCode = s.PostalCodes
		n.SerialNumber = s.SerialNumber
	}
	return n
}

// loadCA reads a CA Secret dir: its chain (tls.crt) and its key.
func loadCA(dir, name string) ([]*x509.Certificate, crypto.Signer, error) {
	chain, err := readCertificates(filepath.Join(dir, name, "tls.crt"))
	if err != nil {
		return nil, nil, fmt.Errorf("CA Secret %s: %w", name, err)
	}
	keyPEM, err := os.ReadFile(filepath.Join(dir, name, "tls.key"))
	if err != nil {
		return nil, nil, fmt.Errorf("CA Secret %s: %w", name, err)
	}
	block, _ := pem.Decode(keyPEM)
	if block == nil {
		return nil, nil, fmt.Errorf("CA Secret %s: tls.key holds no PEM block", name)
	}
	var key interface{}
	switch block.Type {
	case "RSA PRIVATE KEY":
		key, err = x509.ParsePKCS1PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	default:
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("CA Secret %s: tls.key: %w", name, err)
	}
	signer, ok := key.(crypto.Signer)
	if !ok {
		return nil, nil, fmt.Errorf("CA Secret %s: tls.key is not a signing key", name)
	}
	// cert-manager's CA issuer refuses a CA whose certificate is not a CA.
	if !chain[0].IsCA {
		return nil, nil, fmt.Errorf("CA Secret %s: tls.crt is not a CA certificate (BasicConstraints CA:FALSE); cert-manager's CA issuer would not be Ready", name)
	}
	return chain, signer, nil
}

func readCertificates(path string) ([]*x509.Certificate, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []*x509.Certificate
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			break
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no certificate", path)
	}
	return out, nil
}

func pemCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func isSelfSigned(c *x509.Certificate) bool {
	return string(c.RawIssuer) == string(c.RawSubject) && c.CheckSignatureFrom(c) == nil
}

func issueOne(dir string, spec certificateSpec, iss resolvedIssuer) (issuedReport, error) {
	key, keyType, err := generateKey(spec)
	if err != nil {
		return issuedReport{}, err
	}
	ku, eku, _ := usagesOf(spec)
	duration, _ := durationOf(spec.Duration, 2160*time.Hour)
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return issuedReport{}, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               subjectOf(spec),
		DNSNames:              spec.DNSNames,
		EmailAddresses:        spec.EmailAddresses,
		NotBefore:             now,
		NotAfter:              now.Add(duration),
		KeyUsage:              ku,
		ExtKeyUsage:           eku,
		BasicConstraintsValid: true,
		IsCA:                  spec.IsCA,
	}
	for _, ip := range spec.IPAddresses {
		parsed := net.ParseIP(ip)
		if parsed == nil {
			return issuedReport{}, fmt.Errorf("spec.ipAddresses: %q is not an IP address", ip)
		}
		tmpl.IPAddresses = append(tmpl.IPAddresses, parsed)
	}
	for _, u := range spec.URIs {
		parsed, err := url.Parse(u)
		if err != nil {
			return issuedReport{}, fmt.Errorf("spec.uris: %w", err)
		}
		tmpl.URIs = append(tmpl.URIs, parsed)
	}

	var certPEM, caPEM []byte
	if iss.selfSigned {
		der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
		if err != nil {
			return issuedReport{}, err
		}
		certPEM = pemCert(der)
		caPEM = certPEM
	} else {
		caChain, caKey, err := loadCA(dir, iss.caSecret)
		if err != nil {
			return issuedReport{}, fmt.Errorf("issuer %s: %w", iss.label, err)
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, caChain[0], key.Public(), caKey)
		if err != nil {
			return issuedReport{}, err
		}
		// tls.crt: the leaf then the CA's chain without its self-signed root; ca.crt: the root
		// (or the last certificate of the chain when the CA Secret does not hold its root).
		certPEM = pemCert(der)
		root := caChain[len(caChain)-1]
		for _, c := range caChain {
			if c == root && isSelfSigned(c) {
				break
			}
			certPEM = append(certPEM, pemCert(c.Raw)...)
		}
		caPEM = pemCert(root.Raw)
	}
	keyPEM, err := encodeKey(key, spec)
	if err != nil {
		return issuedReport{}, err
	}
	out := filepath.Join(dir, spec.SecretName)
	if err := os.MkdirAll(out, 0o700); err != nil {
		return issuedReport{}, err
	}
	for name, data := range map[string][]byte{"tls.crt": certPEM, "tls.key": keyPEM, "ca.crt": caPEM} {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o600); err != nil {
			return issuedReport{}, err
		}
	}
	dns := append([]string(nil), spec.DNSNames...)
	sort.Strings(dns)
	return issuedReport{
		SecretName: spec.SecretName,
		Issuer:     iss.label,
		Subject:    tmpl.Subject.String(),
		DNSNames:   dns,
		KeyType:    keyType,
		IsCA:       spec.IsCA,
		NotBefore:  tmpl.NotBefore.UTC(),
		NotAfter:   tmpl.NotAfter.UTC(),
	}, nil
}
