pub mod opencut;
