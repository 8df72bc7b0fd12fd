package main

// A minimal HTTP/2 client for one unary gRPC call, so that the operator peer controls the order
// of its first reads and writes. After a TLS 1.3 handshake the client's side is complete before
// the server has checked the client certificate; a server that rejects it sends an alert and
// closes. An HTTP/2 client that writes its preface first races that close and may report
// `write: broken pipe` instead of the alert. This one reads the server's connection preface
// (its SETTINGS frame, which an HTTP/2 server sends without waiting for the client) first, so
// the alert is what it reports: the same `remote error: tls: ...` that gRPC's reader logs as
// `error reading server preface: ...`.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
)

const (
	frameData         = 0x0
	frameHeaders      = 0x1
	frameRSTStream    = 0x3
	frameSettings     = 0x4
	framePing         = 0x6
	frameGoAway       = 0x7
	frameContinuation = 0x9

	flagEndStream  = 0x1
	flagAck        = 0x1
	flagEndHeaders = 0x4
	flagPadded     = 0x8
	flagPriority   = 0x20
)

type h2frame struct {
	typ, flags byte
	stream     uint32
	payload    []byte
}

func readFrame(r io.Reader) (h2frame, error) {
	var hdr [9]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return h2frame{}, err
	}
	n := uint32(hdr[0])<<16 | uint32(hdr[1])<<8 | uint32(hdr[2])
	if n > 1<<20 {
		return h2frame{}, fmt.Errorf("HTTP/2 frame of %d bytes is too large", n)
	}
	f := h2frame{typ: hdr[3], flags: hdr[4], stream: binary.BigEndian.Uint32(hdr[5:9]) & 0x7fffffff, payload: make([]byte, n)}
	if _, err := io.ReadFull(r, f.payload); err != nil {
		return h2frame{}, err
	}
	return f, nil
}

func writeFrame(w io.Writer, typ, flags byte, stream uint32, payload []byte) error {
	buf := make([]byte, 9+len(payload))
	buf[0], buf[1], buf[2] = byte(len(payload)>>16), byte(len(payload)>>8), byte(len(payload))
	buf[3], buf[4] = typ, flags
	binary.BigEndian.PutUint32(buf[5:9], stream)
	copy(buf[9:], payload)
	_, err := w.Write(buf)
	return err
}

// hpackInt encodes an HPACK integer with an n-bit prefix whose high bits are `first`.
func hpackInt(first byte, n uint, v int) []byte {
	max := 1<<n - 1
	if v < max {
		return []byte{first | byte(v)}
	}
	out := []byte{first | byte(max)}
	v -= max
	for v >= 128 {
		out = append(out, byte(v%128+128))
		v /= 128
	}
	return append(out, byte(v))
}

func hpackString(s string) []byte {
	return append(hpackInt(0, 7, len(s)), s...)
}

// requestHeaders encodes the request's header block without Huffman coding or indexing.
func requestHeaders(authority, path string) []byte {
	var b []byte
	b = append(b, 0x83, 0x87) // static table: :method POST, :scheme https
	b = append(b, hpackInt(0x00, 4, 4)...)
	b = append(b, hpackString(path)...) // :path (static name 4)
	b = append(b, hpackInt(0x00, 4, 1)...)
	b = append(b, hpackString(authority)...) // :authority (static name 1)
	b = append(b, hpackInt(0x00, 4, 31)...)
	b = append(b, hpackString("application/grpc")...) // content-type (static name 31)
	b = append(b, 0x00)
	b = append(b, hpackString("te")...)
	b = append(b, hpackString("trailers")...)
	return b
}

// unaryCall sends one gRPC request on stream 1 and returns the first response message.
func unaryCall(conn net.Conn, authority, path string, request []byte) ([]byte, error) {
	first, err := readFrame(conn)
	if err != nil {
		return nil, fmt.Errorf("error reading server preface: %w", err)
	}
	if first.typ != frameSettings || first.flags&flagAck != 0 {
		return nil, fmt.Errorf("error reading server preface: got frame type %d, want SETTINGS", first.typ)
	}
	if _, err := io.WriteString(conn, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"); err != nil {
		return nil, err
	}
	if err := writeFrame(conn, frameSettings, 0, 0, nil); err != nil {
		return nil, err
	}
	if err := writeFrame(conn, frameSettings, flagAck, 0, nil); err != nil {
		return nil, err
	}
	if err := writeFrame(conn, frameHeaders, flagEndHeaders, 1, requestHeaders(authority, path)); err != nil {
		return nil, err
	}
	if err := writeFrame(conn, frameData, flagEndStream, 1, grpcFrame(request)); err != nil {
		return nil, err
	}
	var data []byte
	sawHeaders := false
	for {
		f, err := readFrame(conn)
		if err != nil {
			return nil, err
		}
		switch f.typ {
		case frameSettings:
			if f.flags&flagAck == 0 {
				if err := writeFrame(conn, frameSettings, flagAck, 0, nil); err != nil {
					return nil, err
				}
			}
		case framePing:
			if f.flags&flagAck == 0 {
				if err := writeFrame(conn, framePing, flagAck, 0, f.payload); err != nil {
					return nil, err
				}
			}
		case frameGoAway:
			if len(f.payload) >= 8 {
				return nil, fmt.Errorf("GOAWAY with error code %d: %s", binary.BigEndian.Uint32(f.payload[4:8]), f.payload[8:])
			}
			return nil, errors.New("GOAWAY")
		case frameRSTStream:
			if f.stream == 1 && len(f.payload) == 4 {
				return nil, fmt.Errorf("stream reset with error code %d", binary.BigEndian.Uint32(f.payload))
			}
		case frameHeaders, frameContinuation:
			if f.stream != 1 {
				continue
			}
			block := f.payload
			if f.typ == frameHeaders {
				if f.flags&flagPadded != 0 && len(block) > 0 {
					pad := int(block[0])
					if pad+1 > len(block) {
						return nil, errors.New("bad HEADERS padding")
					}
					block = block[1 : len(block)-pad]
				}
				if f.flags&flagPriority != 0 && len(block) >= 5 {
					block = block[5:]
				}
			}
			// Response headers start with ":status: 200", which HPACK sends as static index 8.
			if !sawHeaders {
				sawHeaders = true
				if len(block) == 0 || block[0] != 0x88 {
					return nil, errors.New("the response status is not 200")
				}
			}
			if f.flags&flagEndStream != 0 {
				return finishUnary(data)
			}
		case frameData:
			if f.stream != 1 {
				continue
			}
			payload := f.payload
			if f.flags&flagPadded != 0 && len(payload) > 0 {
				pad := int(payload[0])
				if pad+1 > len(payload) {
					return nil, errors.New("bad DATA padding")
				}
				payload = payload[1 : len(payload)-pad]
			}
			data = append(data, payload...)
			if f.flags&flagEndStream != 0 {
				return finishUnary(data)
			}
		}
	}
}

func finishUnary(data []byte) ([]byte, error) {
	if len(data) == 0 {
		return nil, errors.New("the call ended without a response message (a gRPC error status)")
	}
	return readGrpcFrame(bytes.NewReader(data))
}
