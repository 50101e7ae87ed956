//! PoG chain's stand-in for the `wasm-opt` crate (Rust bindings to binaryen) in the runtime's build.
//!
//! substrate-wasm-builder runs binaryen over the runtime's WASM once the compiler is done with it,
//! always with the same request (`substrate-wasm-builder` 35, `wasm_project.rs`):
//!
//! ```text
//! OptimizationOptions::new_opt_level_0()   // no optimisation pass
//!     .mvp_features_only()                 // the output may use WebAssembly 1.0 (MVP) only
//!     .debug_info(true)                    // keep the name section
//!     .add_pass(Pass::StripDwarf)          // drop DWARF (`.debug_*` custom sections)
//!     .add_pass(Pass::SignextLowering)     // rewrite sign-extension ops in MVP ops
//!     .run(bloaty, compact)
//! ```
//!
//! (and, for a debug build, `SignextLowering` alone, in place). Binaryen is 219 C++ files that every
//! cold build compiles, as a build dependency, at -O0: 11 CPU-minutes, more than any other crate
//! of the node's tree, on the path to the runtime's WASM. This crate does the same job in Rust, with
//! the `wasmparser` and `wasm-encoder` the node's tree already has: it validates the input, drops
//! the DWARF sections, lowers the five sign-extension ops (`i32.extend8_s` …) into the shift pairs
//! binaryen's pass writes, re-encodes every function body with minimal LEB128 immediates (what
//! binaryen's writer does; `rust-lld` pads call targets and memory offsets to 5 bytes), and
//! validates the output against the requested feature set. The workspace's `[patch.crates-io]`
//! puts it in place of the registry's `wasm-opt`; it offers the part of that crate's API the
//! builder calls, with the same names, so a builder that asks for more fails to compile rather
//! than build something else.
//!
//! What differs from binaryen at -O0: binaryen rebuilds each function through its own IR, so its
//! output is a different (equivalent) encoding; this crate keeps rustc's instructions one for one,
//! except the lowered ones. On PoG chain's runtime both outputs are within 0.1% in size
//! (README, "Building the runtime's WASM").

#![warn(missing_docs)]

use std::{
	convert::Infallible,
	fmt, fs, io,
	path::{Path, PathBuf},
};

use wasm_encoder::{
	reencode::{self, Reencode},
	CodeSection, Instruction, Module,
};
use wasmparser::{BinaryReaderError, CustomSectionReader, FunctionBody, Operator, Parser, Validator, WasmFeatures};

/// A pass to run, as the `wasm-opt` crate names them (only those the runtime's build asks for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Pass {
	/// Remove DWARF debugging information: every custom section whose name starts with `.debug_`.
	StripDwarf,
	/// Replace the sign-extension operators by MVP shifts: `i32.extend8_s` becomes
	/// `i32.const 24; i32.shl; i32.const 24; i32.shr_s`, and so on for the other four.
	SignextLowering,
}

/// What to do to a module: the builder's subset of the `wasm-opt` crate's `OptimizationOptions`.
#[derive(Clone, Debug)]
pub struct OptimizationOptions {
	passes: Vec<Pass>,
	mvp_only: bool,
	debug_info: bool,
}

/// Why a module could not be processed.
#[derive(Debug)]
pub enum OptimizationError {
	/// The input file could not be read.
	Read {
		/// The file.
		path: PathBuf,
		/// What the system said.
		source: io::Error,
	},
	/// The input is not a valid module under the requested features (plus sign-extension when it
	/// is to be lowered).
	ValidateWasmInput(BinaryReaderError),
	/// The module could not be re-encoded.
	Reencode(String),
	/// The output is not valid under the requested features (for example a non-MVP instruction
	/// that no requested pass lowers, with `mvp_features_only`).
	ValidateWasmOutput(BinaryReaderError),
	/// The output file could not be written.
	Write {
		/// The file.
		path: PathBuf,
		/// What the system said.
		source: io::Error,
	},
}

impl fmt::Display for OptimizationError {
	fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
		match self {
			Self::Read { path, source } => write!(f, "cannot read {}: {source}", path.display()),
			Self::ValidateWasmInput(e) => write!(f, "the input is not a valid WASM module for these features: {e}"),
			Self::Reencode(e) => write!(f, "cannot re-encode the module: {e}"),
			Self::ValidateWasmOutput(e) => {
				write!(f, "the output is not valid for the requested features (a pass is missing?): {e}")
			},
			Self::Write { path, source } => write!(f, "cannot write {}: {source}", path.display()),
		}
	}
}

impl std::error::Error for OptimizationError {}

impl OptimizationOptions {
	/// No optimisation: only the passes added, and binaryen's default features (MVP, sign-extension,
	/// mutable globals), without debug information.
	pub fn new_opt_level_0() -> Self {
		Self { passes: Vec::new(), mvp_only: false, debug_info: false }
	}

	/// Adds a pass. The two act on different parts of a module (custom sections, instructions), so
	/// they are applied in one pass over it and their order does not matter.
	pub fn add_pass(&mut self, pass: Pass) -> &mut Self {
		self.passes.push(pass);
		self
	}

	/// Keeps the name section (true) or drops it and every DWARF section (false, the default).
	pub fn debug_info(&mut self, keep: bool) -> &mut Self {
		self.debug_info = keep;
		self
	}

	/// Requires the output to use WebAssembly 1.0 (MVP) features only.
	pub fn mvp_features_only(&mut self) -> &mut Self {
		self.mvp_only = true;
		self
	}

	/// Reads `infile`, processes it, and writes `outfile` (which may be `infile`).
	pub fn run(&self, infile: impl AsRef<Path>, outfile: impl AsRef<Path>) -> Result<(), OptimizationError> {
		let (infile, outfile) = (infile.as_ref(), outfile.as_ref());
		let wasm = fs::read(infile).map_err(|source| OptimizationError::Read { path: infile.into(), source })?;
		let out = self.optimize(&wasm)?;
		fs::write(outfile, out).map_err(|source| OptimizationError::Write { path: outfile.into(), source })
	}

	/// Processes a module in memory.
	pub fn optimize(&self, wasm: &[u8]) -> Result<Vec<u8>, OptimizationError> {
		let lower_signext = self.passes.contains(&Pass::SignextLowering);
		let output_features = self.features();
		let input_features =
			if lower_signext { output_features | WasmFeatures::SIGN_EXTENSION } else { output_features };
		Validator::new_with_features(input_features)
			.validate_all(wasm)
			.map_err(OptimizationError::ValidateWasmInput)?;

		let mut rewriter = Rewriter {
			lower_signext,
			strip_dwarf: self.passes.contains(&Pass::StripDwarf) || !self.debug_info,
			keep_names: self.debug_info,
		};
		let mut module = Module::new();
		rewriter
			.parse_core_module(&mut module, Parser::new(0), wasm)
			.map_err(|e| OptimizationError::Reencode(e.to_string()))?;
		let out = module.finish();

		Validator::new_with_features(output_features)
			.validate_all(&out)
			.map_err(OptimizationError::ValidateWasmOutput)?;
		Ok(out)
	}

	/// The features the output may use: binaryen's baseline for these options.
	fn features(&self) -> WasmFeatures {
		if self.mvp_only {
			WasmFeatures::MVP
		} else {
			WasmFeatures::MVP | WasmFeatures::SIGN_EXTENSION | WasmFeatures::MUTABLE_GLOBAL
		}
	}
}

/// Copies a module section by section, re-encoding function bodies, with the passes applied.
struct Rewriter {
	lower_signext: bool,
	strip_dwarf: bool,
	keep_names: bool,
}

impl Reencode for Rewriter {
	type Error = Infallible;

	fn parse_custom_section(
		&mut self,
		module: &mut Module,
		section: CustomSectionReader<'_>,
	) -> Result<(), reencode::Error<Infallible>> {
		let name = section.name();
		if (self.strip_dwarf && name.starts_with(".debug_")) || (!self.keep_names && name == "name") {
			return Ok(());
		}
		reencode::utils::parse_custom_section(self, module, section)
	}

	fn parse_function_body(
		&mut self,
		code: &mut CodeSection,
		func: FunctionBody<'_>,
	) -> Result<(), reencode::Error<Infallible>> {
		let mut function = self.new_function_with_parsed_locals(&func)?;
		let mut reader = func.get_operators_reader()?;
		while !reader.eof() {
			let operator = reader.read()?;
			match (self.lower_signext, signext_shift(&operator)) {
				(true, Some(Shift::I32(bits))) => {
					function.instruction(&Instruction::I32Const(bits));
					function.instruction(&Instruction::I32Shl);
					function.instruction(&Instruction::I32Const(bits));
					function.instruction(&Instruction::I32ShrS);
				},
				(true, Some(Shift::I64(bits))) => {
					function.instruction(&Instruction::I64Const(bits));
					function.instruction(&Instruction::I64Shl);
					function.instruction(&Instruction::I64Const(bits));
					function.instruction(&Instruction::I64ShrS);
				},
				_ => {
					function.instruction(&self.instruction(operator)?);
				},
			}
		}
		code.function(&function);
		Ok(())
	}
}

/// The shift that sign-extends the low bits of a value: by 32 or 64 minus the width kept.
enum Shift {
	I32(i32),
	I64(i64),
}

/// The shift that replaces a sign-extension operator, or `None` for any other operator.
fn signext_shift(operator: &Operator<'_>) -> Option<Shift> {
	match operator {
		Operator::I32Extend8S => Some(Shift::I32(24)),
		Operator::I32Extend16S => Some(Shift::I32(16)),
		Operator::I64Extend8S => Some(Shift::I64(56)),
		Operator::I64Extend16S => Some(Shift::I64(48)),
		Operator::I64Extend32S => Some(Shift::I64(32)),
		_ => None,
	}
}

#[cfg(test)]
mod tests;
