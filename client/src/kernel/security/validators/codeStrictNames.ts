/**
 * The names code may use at the code safety `strict` and `readonly` levels (MGP §7.2), where the kernel
 * reads the code with a real parser and judges names against allowlists, not patterns.
 *
 * - A free name (one the code does not bind itself) must be on the language's allowlist: pure
 *   computation, no reflection, no evaluation, no process or host objects.
 * - Attribute names that reach interpreter internals (prototype chains, frames, code objects, module
 *   loaders) are refused on any object, whatever the spelling the parser normalises to.
 * - Python only: attributes of an imported module must not be the modules it imported itself
 *   (`typing.sys`, `enum.bltns`, `uuid.os`), so an allowed module is not a door to a refused one.
 */

const words = (text: string): ReadonlySet<string> => new Set(text.split(/\s+/).filter(Boolean));

/** JavaScript globals a program may name without binding them. `require` is judged apart (a call with a literal). */
export const JS_ALLOWED_GLOBALS = words(`
  Array ArrayBuffer BigInt BigInt64Array BigUint64Array Boolean DataView Date Error EvalError
  RangeError ReferenceError SyntaxError TypeError URIError AggregateError Float32Array Float64Array
  Int8Array Int16Array Int32Array Uint8Array Uint8ClampedArray Uint16Array Uint32Array Infinity NaN
  undefined Intl JSON Map Math Number Object Promise RegExp Set String Symbol WeakMap WeakSet
  isFinite isNaN parseFloat parseInt encodeURI encodeURIComponent decodeURI decodeURIComponent
  console structuredClone TextEncoder TextDecoder URL URLSearchParams atob btoa Buffer
  queueMicrotask setTimeout clearTimeout setInterval clearInterval setImmediate clearImmediate
`);

/** Timers that would evaluate a string: their first argument must be a function written in place. */
export const JS_TIMERS = words('setTimeout setInterval setImmediate');

/**
 * Properties that lead from any value to the Function constructor, the module loader, the process or
 * stack frames. A read with any of these names is refused, as a `.name`, a `['name']` or a
 * destructured key.
 */
export const JS_DENIED_PROPERTIES = words(`
  constructor __proto__ __defineGetter__ __defineSetter__ __lookupGetter__ __lookupSetter__
  caller callee arguments getPrototypeOf setPrototypeOf getOwnPropertyDescriptor
  getOwnPropertyDescriptors prepareStackTrace getThis getFunction mainModule binding
  _linkedBinding getBuiltinModule dlopen _load _resolveFilename _compile createRequire
`);

/**
 * Names a JavaScript runtime provides besides the allowlist. A top-level `var` or function of one of
 * these names in a script does not replace the runtime's value (`var process;` keeps it), so such a
 * declaration does not make the name the code's own.
 */
export const JS_RUNTIME_GLOBALS = words(`
  process require module exports __filename __dirname global globalThis window self document
  navigator location top parent frames opener Deno Bun fetch WebAssembly Function eval Reflect
  Proxy importScripts postMessage XMLHttpRequest WebSocket Worker SharedArrayBuffer Atomics
`);

/** Python builtins code may name at `strict` and `readonly`: no reflection, evaluation or input. */
export const PY_ALLOWED_BUILTINS = words(`
  abs aiter all anext any ascii bin bool bytearray bytes callable chr classmethod complex dict divmod
  enumerate filter float format frozenset hash hex id int isinstance issubclass iter len list map max
  memoryview min next object oct open ord pow print property range repr reversed round set slice
  sorted staticmethod str sum super tuple type zip True False None NotImplemented Ellipsis __name__
  ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BufferError
  EOFError Exception ExceptionGroup FileExistsError FileNotFoundError FloatingPointError
  GeneratorExit IOError IndexError IsADirectoryError KeyError LookupError MemoryError NameError
  NotADirectoryError NotImplementedError OSError OverflowError PermissionError RecursionError
  RuntimeError StopAsyncIteration StopIteration TimeoutError TypeError UnicodeDecodeError
  UnicodeEncodeError UnicodeError ValueError ZeroDivisionError Warning UserWarning
  DeprecationWarning RuntimeWarning
`);

/**
 * Every name Python (3.8–3.13) or an interactive runner provides without an import. A module- or
 * class-level binding of one of these does not make it the code's own: the binding may not have run
 * yet (`if 0: getattr = f`), and the builtin answers until it does.
 */
export const PY_PROVIDED_NAMES = words(`
  __build_class__ __debug__ __doc__ __import__ __loader__ __name__ __package__ __spec__ __builtins__
  __file__ __cached__ __annotations__ breakpoint compile copyright credits delattr dir eval exec exit
  getattr globals hasattr help input license locals quit setattr vars get_ipython display In Out
  _ih _oh _dh _i _ii _iii _ __ ___ reveal_type reveal_locals
`);

/** Dunder attributes that reach nothing: names, documentation, and the constructor a subclass calls. */
export const PY_ALLOWED_DUNDERS = words('__name__ __qualname__ __doc__ __init__');

/**
 * Attributes refused on any Python object: frames, code objects and the helpers that read an
 * attribute or evaluate an annotation by a name computed at run time.
 */
export const PY_DENIED_ATTRIBUTES = words(`
  gi_frame gi_code gi_yieldfrom cr_frame cr_code cr_await cr_origin ag_frame ag_code ag_await
  f_globals f_locals f_builtins f_back f_code f_trace tb_frame tb_next co_code co_consts co_names
  func_globals func_code im_func im_self attrgetter methodcaller vformat get_field get_type_hints
  ForwardRef evaluate_forward_ref CodeType FunctionType LambdaType modules mro
  load_module exec_module
`);

/** `str.format` and `format_map` read attributes named in the format string: only on a literal. */
export const PY_FORMAT_METHODS = words('format format_map');

/** Python's standard modules (sys.stdlib_module_names of 3.11, the private ones left out). */
export const PY_STDLIB_MODULES = words(`
  abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb
  binascii bisect builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop
  collections colorsys compileall concurrent configparser contextlib contextvars copy copyreg crypt
  csv ctypes curses dataclasses datetime dbm decimal difflib dis distutils doctest email encodings
  ensurepip enum errno faulthandler fcntl filecmp fileinput fnmatch fractions ftplib functools gc
  genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq hmac html http idlelib
  imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3 linecache locale
  logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt multiprocessing
  netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib pdb
  pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty
  pwd py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource
  rlcompleter runpy sched secrets select selectors shelve shlex shutil signal site smtpd smtplib
  sndhdr socket socketserver spwd sqlite3 sre_compile sre_constants sre_parse ssl stat statistics
  string stringprep struct subprocess sunau symtable sys sysconfig syslog tabnanny tarfile telnetlib
  tempfile termios textwrap this threading time timeit tkinter token tokenize tomllib trace traceback
  tracemalloc tty turtle turtledemo types typing unicodedata unittest urllib uu uuid venv warnings
  wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp zipfile zipimport zlib
  zoneinfo
`);

/**
 * Modules the standard modules hold under other names (`enum.bltns` is `builtins`, `typing.stdlib_re`
 * is `re`): refused as attributes of a module, like the standard names above.
 */
export const PY_MODULE_ALIASES = words('bltns stdlib_re scanner decoder encoder entities');

/**
 * Members of a module that share a standard module's name but are not modules (`datetime.time` is a
 * class, `random.random` a function): allowed. A module's own name is allowed as its member too.
 */
export const PY_MEMBERS_NAMED_LIKE_MODULES: Readonly<Record<string, ReadonlySet<string>>> = {
  datetime: words('datetime time'),
  unicodedata: words('decimal'),
};

/** Whether `name` is a Python dunder (`__class__`). */
export function isDunder(name: string): boolean {
  return name.length > 4 && name.startsWith('__') && name.endsWith('__');
}
