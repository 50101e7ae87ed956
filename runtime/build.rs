//! Builds the runtime's WASM (substrate-wasm-builder) with the toolchain `scripts/setup.sh`
//! installs, and stops at once, with what to do, when that toolchain is missing (the builder
//! itself would fail much later with a misleading "wasm32-unknown-unknown target is not
//! installed").

fn main() {
	#[cfg(feature = "std")]
	{
		if std::env::var_os("SKIP_WASM_BUILD").is_none() {
			if let Err(problem) = wasm_toolchain() {
				println!("cargo::error={problem}");
				println!(
					"cargo::error=run scripts/setup.sh once on this machine (it installs Debian's rustc-web and \
					 links the `pog-wasm` toolchain; see scripts/README.md, \"Building the runtime's WASM\"), or set \
					 SKIP_WASM_BUILD=1 for a native-only build"
				);
				return;
			}
		}
		// With POG_PLAIN_WASM set (scripts/test.sh sets it), the WASM is built with the runtime's
		// default features only, whatever features this native build has: CI builds the node
		// natively with the unit tests' `runtime-benchmarks` and `try-runtime`, so that the FRAME
		// tree compiles once for the node and the tests, while the node still embeds the runtime a
		// chain runs (and whose metadata hash is committed). substrate-wasm-builder forwards the
		// features it finds in `CARGO_FEATURE_*`.
		println!("cargo::rerun-if-env-changed=POG_PLAIN_WASM");
		if std::env::var_os("POG_PLAIN_WASM").is_some() {
			let features: Vec<String> =
				std::env::vars().map(|(key, _)| key).filter(|key| key.starts_with("CARGO_FEATURE_")).collect();
			for key in features {
				std::env::remove_var(key);
			}
		}
		// The WASM names no path of the machine that built it (panic locations carry file paths;
		// paths with whitespace are left, as RUSTFLAGS splits on it). Two checkouts of one commit
		// still build different WASMs (the runtime is a path dependency of the builder's project,
		// and its absolute path goes into crate hashes): `runtime/source-hash` binds the sources to
		// a spec_version instead.
		println!("cargo::rerun-if-env-changed=CARGO_HOME");
		std::env::set_var("WASM_BUILD_RUSTFLAGS", remapped_paths());
		// The runtime's metadata hash (RFC 78) for `CheckMetadataHash`, as committed beside this
		// file, goes to the WASM's compilation only (the native runtime is never executed).
		match metadata_hash() {
			// (a build script is one thread: setting its environment races nothing)
			Some(hash) => std::env::set_var("RUNTIME_METADATA_HASH", hash),
			None => std::env::remove_var("RUNTIME_METADATA_HASH"),
		}
		substrate_wasm_builder::WasmBuilder::init_with_defaults().build();
		std::env::remove_var("RUNTIME_METADATA_HASH");
		// With POG_UPGRADE_TEST_WASM set (scripts/test.sh sets it), the same runtime under the next
		// spec_version too, as `wbuild/pog-runtime/pog_runtime_next.compact.compressed.wasm`: what
		// tests/local-net.test.mjs upgrades its live network to. It has its own file, so the node's
		// embedded runtime is never this one. Built without a metadata hash (its spec_version
		// differs, so would its hash).
		println!("cargo::rerun-if-env-changed=POG_UPGRADE_TEST_WASM");
		if std::env::var_os("POG_UPGRADE_TEST_WASM").is_some() {
			substrate_wasm_builder::WasmBuilder::init_with_defaults()
				.enable_feature("upgrade-test")
				.set_file_name("pog_runtime_next")
				.build();
		}
	}
}

/// `--remap-path-prefix` for the checkout, Cargo's home and the target directory (last, so that it
/// wins inside the checkout), kept after any `WASM_BUILD_RUSTFLAGS` of the caller's.
#[cfg(feature = "std")]
fn remapped_paths() -> String {
	let var = |key: &str| std::env::var(key).unwrap_or_default();
	let checkout = std::path::Path::new(&var("CARGO_MANIFEST_DIR")).parent().map(|p| p.display().to_string());
	let home = std::env::var("CARGO_HOME").unwrap_or_else(|_| format!("{}/.cargo", var("HOME")));
	// OUT_DIR is <target>/<profile>/build/<crate>-<hash>/out.
	let target = std::path::Path::new(&var("OUT_DIR")).ancestors().nth(4).map(|p| p.display().to_string());
	let mut flags = var("WASM_BUILD_RUSTFLAGS");
	let pairs = [(checkout, "/pog"), (Some(home), "/cargo"), (target, "/target")];
	for (from, to) in pairs {
		if let Some(from) = from.filter(|f| !f.is_empty() && !f.contains(char::is_whitespace)) {
			flags.push_str(&format!(" --remap-path-prefix={from}={to}"));
		}
	}
	flags
}

/// The committed hash of the runtime's metadata (`runtime/metadata-hash`, hex), which
/// `scripts/bless-metadata-hash.sh` writes from a dev node's metadata and token. A stale one
/// only makes mode-1 signatures fail, which `tests/dev-node.test.mjs` checks against the live
/// metadata.
#[cfg(feature = "std")]
fn metadata_hash() -> Option<String> {
	let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("metadata-hash");
	println!("cargo::rerun-if-changed={}", path.display());
	let text = std::fs::read_to_string(&path).unwrap_or_default();
	let hash = text.trim();
	let hex = hash.strip_prefix("0x").unwrap_or(hash);
	if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
		// A first build has none yet: the runtime then refuses mode-1 signatures (`CannotLookup`).
		println!(
			"cargo::warning={} holds no metadata hash (32 bytes of hex): run scripts/bless-metadata-hash.sh \
			 once this node is built, then build it again",
			path.display()
		);
		return None;
	}
	Some(hash.to_string())
}

/// Checks that the toolchain named by `WASM_BUILD_TOOLCHAIN` (set in `.cargo/config.toml`)
/// exists and has a `wasm32v1-none` standard library.
#[cfg(feature = "std")]
fn wasm_toolchain() -> Result<(), String> {
	println!("cargo::rerun-if-env-changed=WASM_BUILD_TOOLCHAIN");
	let Ok(toolchain) = std::env::var("WASM_BUILD_TOOLCHAIN") else {
		return Ok(()); // the builder's own defaults (a rustup wasm32 target)
	};
	let sysroot = std::process::Command::new("rustup")
		.args(["run", &toolchain, "rustc", "--print", "sysroot"])
		.output()
		.ok()
		.filter(|o| o.status.success())
		.map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
		.ok_or_else(|| format!("the runtime's WASM toolchain `{toolchain}` is not installed"))?;
	let target = std::path::Path::new(&sysroot).join("lib/rustlib/wasm32v1-none/lib");
	if !target.is_dir() {
		return Err(format!(
			"the WASM toolchain `{toolchain}` has no wasm32v1-none standard library ({})",
			target.display()
		));
	}
	Ok(())
}
