//! Each pass and check on small modules written for it; the runtime's own WASM goes through this
//! crate in every build of the node (and `tests/dev-node.test.mjs` runs it).

use super::*;
use wasm_encoder::{
	CodeSection, CustomSection, ExportKind, ExportSection, Function, FunctionSection, Instruction, MemArg,
	MemorySection, MemoryType, TypeSection, ValType,
};

/// A module of one function `(param i32 i64) (result i64)` with `body`, a memory, and the given
/// custom sections after the code.
fn module(body: &[Instruction<'_>], customs: &[(&str, &[u8])]) -> Vec<u8> {
	let mut module = Module::new();
	let mut types = TypeSection::new();
	types.ty().function([ValType::I32, ValType::I64], [ValType::I64]);
	module.section(&types);
	let mut functions = FunctionSection::new();
	functions.function(0);
	module.section(&functions);
	let mut memories = MemorySection::new();
	memories.memory(MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None });
	module.section(&memories);
	let mut exports = ExportSection::new();
	exports.export("f", ExportKind::Func, 0);
	module.section(&exports);
	let mut code = CodeSection::new();
	let mut function = Function::new([]);
	for instruction in body {
		function.instruction(instruction);
	}
	code.function(&function);
	module.section(&code);
	for (name, data) in customs {
		module.section(&CustomSection { name: (*name).into(), data: (*data).into() });
	}
	module.finish()
}

/// The builder's request for a release build (substrate-wasm-builder's `compact_wasm`).
fn compact() -> OptimizationOptions {
	let mut options = OptimizationOptions::new_opt_level_0();
	options.mvp_features_only().debug_info(true).add_pass(Pass::StripDwarf).add_pass(Pass::SignextLowering);
	options
}

/// Every operator of every function body, in order, as text.
fn operators(wasm: &[u8]) -> Vec<String> {
	let mut out = Vec::new();
	for payload in Parser::new(0).parse_all(wasm) {
		if let wasmparser::Payload::CodeSectionEntry(body) = payload.unwrap() {
			let mut reader = body.get_operators_reader().unwrap();
			while !reader.eof() {
				out.push(format!("{:?}", reader.read().unwrap()));
			}
		}
	}
	out
}

/// Every custom section's name, in order.
fn custom_names(wasm: &[u8]) -> Vec<String> {
	Parser::new(0)
		.parse_all(wasm)
		.filter_map(|payload| match payload.unwrap() {
			wasmparser::Payload::CustomSection(section) => Some(section.name().to_string()),
			_ => None,
		})
		.collect()
}

#[test]
fn sign_extension_is_lowered_to_shifts_and_the_output_is_mvp() {
	let input = module(
		&[
			Instruction::LocalGet(0),
			Instruction::I32Extend8S,
			Instruction::I32Extend16S,
			Instruction::I64ExtendI32U,
			Instruction::I64Extend8S,
			Instruction::I64Extend16S,
			Instruction::I64Extend32S,
			Instruction::LocalGet(1),
			Instruction::I64Add,
			Instruction::End,
		],
		&[],
	);
	// The input itself is not MVP: this is what the pass is for.
	assert!(Validator::new_with_features(WasmFeatures::MVP).validate_all(&input).is_err());

	let output = compact().optimize(&input).unwrap();

	Validator::new_with_features(WasmFeatures::MVP).validate_all(&output).unwrap();
	let shifts = |ty: &str, bits: i64| {
		vec![
			format!("{ty}Const {{ value: {bits} }}"),
			format!("{ty}Shl"),
			format!("{ty}Const {{ value: {bits} }}"),
			format!("{ty}ShrS"),
		]
	};
	let mut expected = vec!["LocalGet { local_index: 0 }".to_string()];
	expected.extend(shifts("I32", 24));
	expected.extend(shifts("I32", 16));
	expected.push("I64ExtendI32U".into());
	expected.extend(shifts("I64", 56));
	expected.extend(shifts("I64", 48));
	expected.extend(shifts("I64", 32));
	expected.extend(["LocalGet { local_index: 1 }".to_string(), "I64Add".into(), "End".into()]);
	assert_eq!(operators(&output), expected);
}

#[test]
fn without_the_lowering_pass_sign_extension_is_refused_under_mvp() {
	let input = module(&[Instruction::LocalGet(1), Instruction::I64Extend32S, Instruction::End], &[]);
	let mut options = OptimizationOptions::new_opt_level_0();
	options.mvp_features_only().debug_info(true).add_pass(Pass::StripDwarf);
	let error = options.optimize(&input).unwrap_err();
	assert!(matches!(error, OptimizationError::ValidateWasmInput(_)), "{error}");
	assert!(error.to_string().contains("sign extension"), "{error}");
	// Binaryen's default features allow it: copied unchanged.
	let output = OptimizationOptions::new_opt_level_0().optimize(&input).unwrap();
	assert_eq!(operators(&output), operators(&input));
}

#[test]
fn other_post_mvp_instructions_are_refused_under_mvp() {
	let input = module(
		&[
			Instruction::I32Const(0),
			Instruction::I32Const(8),
			Instruction::I32Const(4),
			Instruction::MemoryCopy { src_mem: 0, dst_mem: 0 },
			Instruction::LocalGet(1),
			Instruction::End,
		],
		&[],
	);
	let error = compact().optimize(&input).unwrap_err();
	assert!(matches!(error, OptimizationError::ValidateWasmInput(_)), "{error}");
	assert!(error.to_string().contains("bulk memory"), "{error}");
}

#[test]
fn dwarf_goes_and_every_other_custom_section_stays_in_order() {
	let input = module(
		&[Instruction::LocalGet(1), Instruction::End],
		&[
			(".debug_info", b"dwarf"),
			("runtime_version", b"\x01\x02"),
			(".debug_line", b"lines"),
			("runtime_apis", b"\x03"),
			("producers", b"\x00"),
		],
	);
	let output = compact().optimize(&input).unwrap();
	assert_eq!(custom_names(&output), ["runtime_version", "runtime_apis", "producers"]);
	// The sections' contents are copied as they are.
	let runtime_version = Parser::new(0)
		.parse_all(&output)
		.find_map(|payload| match payload.unwrap() {
			wasmparser::Payload::CustomSection(section) if section.name() == "runtime_version" => {
				Some(section.data().to_vec())
			},
			_ => None,
		})
		.unwrap();
	assert_eq!(runtime_version, b"\x01\x02");
}

#[test]
fn the_name_section_stays_with_debug_info_and_goes_without() {
	let mut names = wasm_encoder::NameSection::new();
	let mut functions = wasm_encoder::NameMap::new();
	functions.append(0, "pog_f");
	names.functions(&functions);
	let names = names.as_custom();
	let input = module(&[Instruction::LocalGet(1), Instruction::End], &[(".debug_str", b"x"), ("name", &names.data)]);

	assert_eq!(custom_names(&compact().optimize(&input).unwrap()), ["name"]);
	assert!(custom_names(&OptimizationOptions::new_opt_level_0().optimize(&input).unwrap()).is_empty());
}

#[test]
fn padded_immediates_are_re_encoded_minimally_with_the_same_instructions() {
	// What rust-lld writes: a call target and a memory offset padded to five LEB128 bytes.
	let padded = |value: u8| [0x80 | value, 0x80, 0x80, 0x80, 0x00];
	let mut body = vec![0x00]; // no locals
	body.extend([0x20, 0x00]); // local.get 0
	body.extend([0x28, 0x02]); // i32.load align=2 offset=16 (padded)
	body.extend(padded(16));
	body.extend([0x1a]); // drop
	body.extend([0x20, 0x00, 0x20, 0x01]); // local.get 0; local.get 1
	body.push(0x10); // call 0 (padded)
	body.extend(padded(0));
	body.push(0x0b); // end
	let mut input = module(&[Instruction::LocalGet(1), Instruction::End], &[]);
	let minimal = input.clone();
	// Swap the code section for one holding the padded body.
	let code_at = minimal.len() - 8; // [id 10, size 6, count 1, body size 4, 0, local.get 1, end]
	assert_eq!(input[code_at], 10);
	input.truncate(code_at);
	let mut section = vec![1, body.len() as u8];
	section.extend(&body);
	input.extend([10, section.len() as u8]);
	input.extend(section);
	let memarg = MemArg { offset: 16, align: 2, memory_index: 0 };
	let expected = module(
		&[
			Instruction::LocalGet(0),
			Instruction::I32Load(memarg),
			Instruction::Drop,
			Instruction::LocalGet(0),
			Instruction::LocalGet(1),
			Instruction::Call(0),
			Instruction::End,
		],
		&[],
	);

	let output = compact().optimize(&input).unwrap();

	assert_eq!(operators(&output), operators(&input));
	assert_eq!(output, expected, "the minimal encoding, byte for byte");
	assert_eq!(input.len() - output.len(), 8, "two immediates of five bytes become one byte each");
}

#[test]
fn run_reads_and_writes_files_in_place_and_names_a_missing_file() {
	let dir = std::env::temp_dir().join(format!("pog-wasm-opt-{}", std::process::id()));
	fs::create_dir_all(&dir).unwrap();
	let path = dir.join("module.wasm");
	fs::write(&path, module(&[Instruction::LocalGet(1), Instruction::I64Extend8S, Instruction::End], &[])).unwrap();

	// A debug build's request: the lowering alone, in place.
	let mut options = OptimizationOptions::new_opt_level_0();
	options.add_pass(Pass::SignextLowering).debug_info(true);
	options.run(&path, &path).unwrap();
	assert!(!operators(&fs::read(&path).unwrap()).iter().any(|op| op.contains("Extend8S")));

	let missing = dir.join("missing.wasm");
	let error = compact().run(&missing, dir.join("out.wasm")).unwrap_err();
	assert!(matches!(&error, OptimizationError::Read { path, .. } if *path == missing), "{error}");
	assert!(error.to_string().contains("missing.wasm"), "{error}");
	fs::remove_dir_all(&dir).unwrap();
}
