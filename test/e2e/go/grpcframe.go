package main

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// The peers speak just enough gRPC to prove that a request crosses the connection the way the
// operator's first call does: HTTP/2, content-type application/grpc, length-prefixed messages
// and a grpc-status trailer. Messages are hand-encoded protobuf (strings only).

const getPluginMetadataPath = "/cnpgi.identity.v1.Identity/GetPluginMetadata"

// grpcFrame wraps one uncompressed message in gRPC's 5-byte length prefix.
func grpcFrame(msg []byte) []byte {
	out := make([]byte, 5+len(msg))
	binary.BigEndian.PutUint32(out[1:5], uint32(len(msg)))
	copy(out[5:], msg)
	return out
}

// readGrpcFrame reads one length-prefixed message.
func readGrpcFrame(r io.Reader) ([]byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, fmt.Errorf("reading gRPC frame header: %w", err)
	}
	if hdr[0] != 0 {
		return nil, errors.New("compressed gRPC frames are not supported")
	}
	n := binary.BigEndian.Uint32(hdr[1:5])
	if n > 1<<20 {
		return nil, fmt.Errorf("gRPC frame of %d bytes is too large", n)
	}
	msg := make([]byte, n)
	if _, err := io.ReadFull(r, msg); err != nil {
		return nil, fmt.Errorf("reading gRPC frame body: %w", err)
	}
	return msg, nil
}

// protoStrings encodes string fields (field number -> value) as a protobuf message.
func protoStrings(fields [][2]interface{}) []byte {
	var out []byte
	for _, f := range fields {
		num := f[0].(int)
		val := f[1].(string)
		out = binary.AppendUvarint(out, uint64(num<<3|2))
		out = binary.AppendUvarint(out, uint64(len(val)))
		out = append(out, val...)
	}
	return out
}

// protoString returns the first length-delimited field with the given number.
func protoString(msg []byte, field int) (string, error) {
	for len(msg) > 0 {
		key, n := binary.Uvarint(msg)
		if n <= 0 {
			return "", errors.New("bad protobuf key")
		}
		msg = msg[n:]
		switch key & 7 {
		case 0:
			_, n = binary.Uvarint(msg)
			if n <= 0 {
				return "", errors.New("bad protobuf varint")
			}
			msg = msg[n:]
		case 2:
			l, n := binary.Uvarint(msg)
			if n <= 0 || uint64(len(msg)-n) < l {
				return "", errors.New("bad protobuf length")
			}
			val := msg[n : n+int(l)]
			msg = msg[n+int(l):]
			if int(key>>3) == field {
				return string(val), nil
			}
		default:
			return "", fmt.Errorf("unsupported protobuf wire type %d", key&7)
		}
	}
	return "", nil
}
