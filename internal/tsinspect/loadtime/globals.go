package loadtime

import "sort"

// bunGlobals are the names a module can read without declaring them: the
// properties of Bun's globalThis (and its prototypes) and the module-scope
// bindings Bun gives every module (require, module, exports, __dirname,
// __filename). Reading any other undeclared name throws a ReferenceError
// when the module loads. TestBunGlobals checks the list against the Bun the
// tests run (`bun -e` over globalThis).
var bunGlobals = map[string]bool{}

func init() {
	for _, name := range bunGlobalNames {
		bunGlobals[name] = true
	}
}

var bunGlobalNames = [...]string{
	"AbortController", "AbortSignal", "AggregateError", "Array", "ArrayBuffer", "AsyncDisposableStack",
	"Atomics", "BigInt", "BigInt64Array", "BigUint64Array", "Blob", "Boolean", "BroadcastChannel",
	"Buffer", "BuildError", "BuildMessage", "Bun", "ByteLengthQueuingStrategy", "CloseEvent",
	"CompressionStream", "CountQueuingStrategy", "Crypto", "CryptoKey", "CustomEvent", "DOMException",
	"DataView", "Date", "DecompressionStream", "DisposableStack", "Error", "ErrorEvent", "EvalError",
	"Event", "EventTarget", "File", "FinalizationRegistry", "Float16Array", "Float32Array",
	"Float64Array", "FormData", "Function", "HTMLRewriter", "Headers", "Infinity", "Int16Array",
	"Int32Array", "Int8Array", "Intl", "Iterator", "JSON", "Map", "Math", "MessageChannel",
	"MessageEvent", "MessagePort", "NaN", "Number", "Object", "Performance", "PerformanceEntry",
	"PerformanceMark", "PerformanceMeasure", "PerformanceObserver", "PerformanceObserverEntryList",
	"PerformanceResourceTiming", "PerformanceServerTiming", "PerformanceTiming", "Promise", "Proxy",
	"RangeError", "ReadableByteStreamController", "ReadableStream", "ReadableStreamBYOBReader",
	"ReadableStreamBYOBRequest", "ReadableStreamDefaultController", "ReadableStreamDefaultReader",
	"ReferenceError", "Reflect", "RegExp", "Request", "ResolveError", "ResolveMessage", "Response",
	"Set", "ShadowRealm", "SharedArrayBuffer", "String", "SubtleCrypto", "SuppressedError", "Symbol",
	"SyntaxError", "Temporal", "TextDecoder", "TextDecoderStream", "TextEncoder", "TextEncoderStream",
	"TransformStream", "TransformStreamDefaultController", "TypeError", "URIError", "URL",
	"URLPattern", "URLSearchParams", "Uint16Array", "Uint32Array", "Uint8Array", "Uint8ClampedArray",
	"WeakMap", "WeakRef", "WeakSet", "WebAssembly", "WebSocket", "Worker", "WritableStream",
	"WritableStreamDefaultController", "WritableStreamDefaultWriter", "__defineGetter__",
	"__defineSetter__", "__dirname", "__filename", "__lookupGetter__", "__lookupSetter__", "__proto__",
	"addEventListener", "alert", "atob", "btoa", "clearImmediate", "clearInterval", "clearTimeout",
	"confirm", "console", "constructor", "crypto", "decodeURI", "decodeURIComponent", "dispatchEvent",
	"encodeURI", "encodeURIComponent", "escape", "eval", "exports", "fetch", "global", "globalThis",
	"hasOwnProperty", "isFinite", "isNaN", "isPrototypeOf", "module", "navigator", "onerror",
	"onmessage", "parseFloat", "parseInt", "performance", "postMessage", "process", "prompt",
	"propertyIsEnumerable", "queueMicrotask", "removeEventListener", "reportError", "require", "self",
	"setImmediate", "setInterval", "setTimeout", "structuredClone", "toLocaleString", "toString",
	"undefined", "unescape", "valueOf",
}

// IsBunGlobal reports whether a module may read name without declaring it.
func IsBunGlobal(name string) bool {
	i := sort.SearchStrings(bunGlobalNames[:], name)
	return i < len(bunGlobalNames) && bunGlobalNames[i] == name
}
