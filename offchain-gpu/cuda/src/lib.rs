//! CUDA backend of the `offchain-gpu` miner agent.
//!
//! - [`detect`] lists the CUDA GPUs with their NVML facts ([`GpuInfo`]).
//! - [`GpuProver`] answers a challenge on one GPU: NVRTC kernels generate the Philox matrices
//!   chunk by chunk along k (overlapped with the GEMM of the previous chunk), cuBLASLt
//!   accumulates `C += A_chunk · B_chunk` in fp32, and Keccak kernels hash the leaves of C and
//!   build the Merkle tree on the device. The result, a [`GpuCommitment`], keeps C and the tree
//!   on the device and copies back only the root and, when asked, opened leaves with their paths.
//! - [`GpuProver`] implements `pog_prover::Prover`, the device-neutral interface the agent
//!   drives; this crate depends on `pog-prover`, never the reverse.
//! - [`bench`] and [`selftest`] measure and check a GPU (the agent's `bench` and `selftest`
//!   subcommands); they take plain configuration structs and return reports, and never see a
//!   command-line flag.
//!
//! This file is the crate's face: it re-exports; errors (`error.rs`) and NVML (`nvml.rs`) have
//! rooms of their own. Everything must equal `pog_primitives` bit for bit; CUDA libraries are
//! loaded at run time, so the crate builds and its unit tests run without CUDA.

#![warn(missing_docs)]

pub mod bench;
mod device;
mod error;
mod gemm;
mod instruments;
pub mod kernels;
mod lanes;
mod memory;
mod nvml;
mod prover;
pub mod selftest;

pub use error::{GpuError, LIBRARY_HINT};
pub use gemm::Fp8Path;
pub use lanes::LaneRun;
pub use memory::{MemoryRun, Residency};
pub use nvml::{detect, GpuInfo};
pub use prover::{GpuCommitment, GpuProver};
