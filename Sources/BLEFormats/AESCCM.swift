import COpenSSL

/// AES-128 in CCM mode (RFC 3610) through OpenSSL's libcrypto, the cipher of encrypted MiBeacon and BTHome
/// adverts. Pure functions of their inputs: every call sets up its own cipher context (the decoders keep one per
/// key in a `CCMOpener`).
public enum AESCCM {
    /// The ciphers, fetched from libcrypto's provider once: `EVP_aes_128_ccm()` would look them up again at every
    /// call, which costs more than the decryption of an advert. A fetched cipher is immutable and may be shared
    /// between threads.
    nonisolated(unsafe) static let ccm: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-128-CCM", nil) ?? EVP_aes_128_ccm()
    nonisolated(unsafe) static let ctr: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-128-CTR", nil) ?? EVP_aes_128_ctr()

    /// Decrypts `ciphertext` and checks its `tag` (4 to 16 bytes); nil when the tag does not match (a wrong key,
    /// or bytes changed on the way) or the sizes are outside what CCM allows.
    public static func open(
        _ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8] = []
    ) -> [UInt8]? {
        // The decoders' own path, with a context made for this call only.
        CCMOpener(key: key).open(ciphertext[...], tag: tag[...], nonce: nonce, associatedData: associatedData)
    }

    /// Whether CCM allows these sizes: a 16-byte key, a 7- to 13-byte nonce, an even tag of 4 to 16 bytes.
    static func fits(key: [UInt8], nonce: [UInt8], tagLength: Int) -> Bool {
        key.count == 16 && (7...13).contains(nonce.count) && (4...16).contains(tagLength) && tagLength % 2 == 0
    }

    /// A decryption context keyed with `key` for nonces and tags of these lengths (libcrypto fixes both when the
    /// key is set); the caller frees it.
    static func keyedContext(key: [UInt8], nonceLength: Int, tagLength: Int) -> OpaquePointer? {
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        guard EVP_DecryptInit_ex(context, ccm, nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonceLength), nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagLength), nil) == 1,
            EVP_DecryptInit_ex(context, nil, nil, key, nil) == 1
        else {
            EVP_CIPHER_CTX_free(context)
            return nil
        }
        return context
    }

    /// Decrypts one message in a context from `keyedContext` whose lengths fit `nonce` and `tag`. A context may
    /// be used again after it: each message sets its own tag, nonce and length, also after a failed tag. Slices
    /// of the advert go in as they are, uncopied.
    static func decrypt(
        _ ciphertext: ArraySlice<UInt8>, tag: ArraySlice<UInt8>, nonce: [UInt8], associatedData: [UInt8],
        in context: OpaquePointer
    ) -> [UInt8]? {
        var length: Int32 = 0
        // libcrypto only reads the tag when decrypting, though its parameter is not const.
        let tagSet = tag.withUnsafeBufferPointer {
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32($0.count), UnsafeMutableRawPointer(mutating: $0.baseAddress))
        }
        guard tagSet == 1, EVP_DecryptInit_ex(context, nil, nil, nil, nonce) == 1,
            // CCM needs the total length before any data.
            EVP_DecryptUpdate(context, nil, &length, nil, Int32(ciphertext.count)) == 1
        else { return nil }
        if !associatedData.isEmpty {
            guard EVP_DecryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                return nil
            }
        }
        let input: ArraySlice<UInt8> = ciphertext.isEmpty ? [0] : ciphertext
        var opened: Int32 = 0
        // Written by libcrypto, not zeroed first: `[UInt8](repeating:count:)` is not specialized here and looks its
        // storage type up in the runtime's tables for every advert. At least one byte, so no pointer is null.
        let plaintext = [UInt8](unsafeUninitializedCapacity: max(ciphertext.count, 1)) { buffer, initialized in
            // The tag is checked here: libcrypto returns 0 (and no plaintext) when it does not match.
            opened = input.withUnsafeBufferPointer {
                EVP_DecryptUpdate(context, buffer.baseAddress, &length, $0.baseAddress, Int32(ciphertext.count))
            }
            initialized = opened == 1 ? ciphertext.count : 0
        }
        return opened == 1 ? plaintext : nil
    }

    /// Encrypts `plaintext` and computes its tag of `tagLength` bytes; nil for sizes CCM does not allow. The
    /// devices do this; the bridge only needs it to test its decoders with keys and counters of its own.
    public static func seal(
        _ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], associatedData: [UInt8] = [], tagLength: Int = 4
    ) -> (ciphertext: [UInt8], tag: [UInt8])? {
        guard key.count == 16, (7...13).contains(nonce.count), (4...16).contains(tagLength), tagLength % 2 == 0 else {
            return nil
        }
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var length: Int32 = 0
        var ciphertext = [UInt8](repeating: 0, count: max(plaintext.count, 1) + 16)
        var tag = [UInt8](repeating: 0, count: tagLength)
        guard EVP_EncryptInit_ex(context, ccm, nil, nil, nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_IVLEN, Int32(nonce.count), nil) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(tagLength), nil) == 1,
            EVP_EncryptInit_ex(context, nil, nil, key, nonce) == 1,
            EVP_EncryptUpdate(context, nil, &length, nil, Int32(plaintext.count)) == 1
        else { return nil }
        if !associatedData.isEmpty {
            guard EVP_EncryptUpdate(context, nil, &length, associatedData, Int32(associatedData.count)) == 1 else {
                return nil
            }
        }
        let input = plaintext.isEmpty ? [0] : plaintext
        guard EVP_EncryptUpdate(context, &ciphertext, &length, input, Int32(plaintext.count)) == 1 else { return nil }
        var final: Int32 = 0
        guard EVP_EncryptFinal_ex(context, &ciphertext[Int(length)], &final) == 1,
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(tagLength), &tag) == 1
        else { return nil }
        return (Array(ciphertext.prefix(plaintext.count)), tag)
    }

    /// CCM's encryption without its tag: the keystream of counter blocks `L−1 | nonce | i` from i = 1, XORed
    /// with the data (so it both encrypts and decrypts). MiBeacon v2/v3 sends no usable tag, so this is all that
    /// can be done with it; a wrong key gives other bytes, never an error.
    public static func keystream(_ data: [UInt8], key: [UInt8], nonce: [UInt8]) -> [UInt8]? {
        guard key.count == 16, (7...13).contains(nonce.count) else { return nil }
        let lengthSize = 15 - nonce.count
        var counter = [UInt8(lengthSize - 1)] + nonce + [UInt8](repeating: 0, count: lengthSize)
        counter[15] = 1
        guard let context = EVP_CIPHER_CTX_new() else { return nil }
        defer { EVP_CIPHER_CTX_free(context) }
        var output = [UInt8](repeating: 0, count: max(data.count, 1) + 16)
        var length: Int32 = 0
        let input = data.isEmpty ? [0] : data
        guard EVP_EncryptInit_ex(context, ctr, nil, key, counter) == 1,
            EVP_EncryptUpdate(context, &output, &length, input, Int32(data.count)) == 1
        else { return nil }
        return Array(output.prefix(data.count))
    }
}
