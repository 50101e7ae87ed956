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
					 links the `pog-wasm` toolchain; see README, \"Building the runtime's WASM\"), or set \
					 SKIP_WASM_BUILD=1 for a native-only build"
				);
				return;
			}
		}
		builder().build();
		// With POG_UPGRADE_TEST_WASM set (scripts/test.sh sets it), the same runtime under the next
		// spec_version too, as `wbuild/pog-runtime/pog_runtime_next.compact.compressed.wasm`: what
		// tests/local-net.test.mjs upgrades its live network to. It has its own file, so the node's
		// embedded runtime is never this one. Built without the metadata hash (a second build of the
		// runtime that no test of it needs).
		println!("cargo::rerun-if-env-changed=POG_UPGRADE_TEST_WASM");
		if std::env::var_os("POG_UPGRADE_TEST_WASM").is_some() {
			substrate_wasm_builder::WasmBuilder::init_with_defaults()
				.enable_feature("upgrade-test")
				.set_file_name("pog_runtime_next")
				.build();
		}
	}
}

/// The builder of the runtime's WASM: with the `metadata-hash` feature (the node enables it), it
/// builds the runtime once, reads its metadata, and builds it again with the metadata's hash
/// (RFC 78, over the token the chain specs name: POG, 12 decimals) for `CheckMetadataHash`.
#[cfg(feature = "std")]
fn builder() -> substrate_wasm_builder::WasmBuilder {
	let builder = substrate_wasm_builder::WasmBuilder::init_with_defaults();
	#[cfg(feature = "metadata-hash")]
	let builder = builder.enable_metadata_hash("POG", 12);
	builder
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
