use crate::mock::*;
