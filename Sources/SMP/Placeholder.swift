import CBOR
