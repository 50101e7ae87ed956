//! pallet-pog tests (being rewritten for rounds).
