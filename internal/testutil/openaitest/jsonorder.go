package openaitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// object is a JSON object that keeps its keys in the order they were
// recorded, so that an event built from a recorded one reads like the
// recording: encoding/json's maps would sort the keys. Its values are
// *object, []any, json.Number (the recorded digits, so 1.0 stays 1.0),
// string, bool and nil.
type object struct {
	keys []string
	vals map[string]any
}

func newObject() *object { return &object{vals: map[string]any{}} }

// parseObject decodes one JSON object.
func parseObject(data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("openaitest: trailing data after JSON value")
	}
	o, ok := v.(*object)
	if !ok {
		return nil, fmt.Errorf("openaitest: JSON value is not an object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			o := newObject()
			for dec.More() {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				o.set(k.(string), v)
			}
			_, err := dec.Token() // '}'
			return o, err
		case '[':
			list := []any{}
			for dec.More() {
				v, err := decodeValue(dec)
				if err != nil {
					return nil, err
				}
				list = append(list, v)
			}
			_, err := dec.Token() // ']'
			return list, err
		}
		return nil, fmt.Errorf("openaitest: unexpected %v", t)
	default:
		return t, nil
	}
}

// set replaces key's value where it stands, or appends the key.
func (o *object) set(key string, v any) *object {
	if _, ok := o.vals[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.vals[key] = v
	return o
}

// del removes key; absent keys are fine.
func (o *object) del(key string) {
	if _, ok := o.vals[key]; !ok {
		return
	}
	delete(o.vals, key)
	for i, k := range o.keys {
		if k == key {
			o.keys = append(o.keys[:i:i], o.keys[i+1:]...)
			return
		}
	}
}

func (o *object) get(key string) any { return o.vals[key] }

// obj returns key's value as an object; the templates are known, so a
// missing one is a programming error here and panics.
func (o *object) obj(key string) *object {
	v, ok := o.vals[key].(*object)
	if !ok {
		panic(fmt.Sprintf("openaitest: template has no object %q", key))
	}
	return v
}

func (o *object) list(key string) []any {
	v, ok := o.vals[key].([]any)
	if !ok {
		panic(fmt.Sprintf("openaitest: template has no list %q", key))
	}
	return v
}

// clone copies deeply, so a template is never changed by one request.
func (o *object) clone() *object { return cloneValue(o).(*object) }

func cloneValue(v any) any {
	switch t := v.(type) {
	case *object:
		c := &object{keys: append([]string(nil), t.keys...), vals: make(map[string]any, len(t.vals))}
		for k, x := range t.vals {
			c.vals[k] = cloneValue(x)
		}
		return c
	case []any:
		c := make([]any, len(t))
		for i, x := range t {
			c[i] = cloneValue(x)
		}
		return c
	default:
		return t
	}
}

// MarshalJSON writes compact JSON with the keys in order and without
// encoding/json's HTML escaping (the API sends "&" and "<" as they are).
func (o *object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := writeValue(&b, o); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func (o *object) bytes() []byte {
	b, err := o.MarshalJSON()
	if err != nil {
		panic(err) // only our own values are in an object
	}
	return b
}

func writeValue(b *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case *object:
		b.WriteByte('{')
		for i, k := range t.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeScalar(b, k); err != nil {
				return err
			}
			b.WriteByte(':')
			if err := writeValue(b, t.vals[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
		return nil
	case []any:
		b.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeValue(b, x); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	case []string:
		list := make([]any, len(t))
		for i, s := range t {
			list[i] = s
		}
		return writeValue(b, list)
	default:
		return writeScalar(b, t)
	}
}

func writeScalar(b *bytes.Buffer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return nil
}
