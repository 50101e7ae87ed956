//! The chain client's types are generated from `metadata/pog.scale` by a macro, which cargo does
//! not know reads the file: this tells cargo to rebuild the agent when the metadata is re-blessed
//! (a stale agent fails against the chain with "static storage address … not compatible").
fn main() {
	println!("cargo::rerun-if-changed=metadata/pog.scale");
}
