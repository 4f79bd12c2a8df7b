//! How a snippet agent's imports and exports are described (`func() -> i64`, `memory(1 pages
//! min)`), as a core module's are, without compiling it: a snippet is kept as its bytes until its
//! game runs it, so the types come from the module's sections, read in order.

use wasmparser::{
    CompositeInnerType, ExternalKind, FuncType, FunctionSectionReader, MemorySectionReader,
    TableSectionReader, TypeRef, TypeSectionReader,
};

/// The types and index spaces of a module, filled section by section.
#[derive(Default)]
pub struct Spaces {
    /// Every type, in index order: `None` for a type that is not a function's.
    types: Vec<Option<FuncType>>,
    /// The type index of each function, imported ones first.
    functions: Vec<u32>,
    /// Each memory's and table's description, imported ones first.
    memories: Vec<String>,
    tables: Vec<String>,
}

impl Spaces {
    pub fn types(&mut self, section: TypeSectionReader<'_>) -> wasmparser::Result<()> {
        for group in section {
            for ty in group?.into_types() {
                self.types.push(match ty.composite_type.inner {
                    CompositeInnerType::Func(f) => Some(f),
                    _ => None,
                });
            }
        }
        Ok(())
    }

    pub fn functions(&mut self, section: FunctionSectionReader<'_>) -> wasmparser::Result<()> {
        for ty in section {
            self.functions.push(ty?);
        }
        Ok(())
    }

    pub fn memories(&mut self, section: MemorySectionReader<'_>) -> wasmparser::Result<()> {
        for memory in section {
            self.memories.push(memory_kind(memory?.initial));
        }
        Ok(())
    }

    pub fn tables(&mut self, section: TableSectionReader<'_>) -> wasmparser::Result<()> {
        for table in section {
            self.tables.push(table_kind(table?.ty.initial));
        }
        Ok(())
    }

    /// Describes an import, adding it to its index space.
    pub fn import(&mut self, ty: TypeRef) -> String {
        match ty {
            TypeRef::Func(index) | TypeRef::FuncExact(index) => {
                self.functions.push(index);
                self.func_kind(index)
            }
            TypeRef::Memory(m) => {
                self.memories.push(memory_kind(m.initial));
                memory_kind(m.initial)
            }
            TypeRef::Table(t) => {
                self.tables.push(table_kind(t.initial));
                table_kind(t.initial)
            }
            TypeRef::Global(_) => "global".into(),
            TypeRef::Tag(_) => "tag".into(),
        }
    }

    /// Describes an export (once the sections before the exports are read).
    pub fn export(&self, kind: ExternalKind, index: u32) -> String {
        let nth = |list: &[String], what: &str| {
            list.get(index as usize)
                .cloned()
                .unwrap_or_else(|| what.to_owned())
        };
        match kind {
            ExternalKind::Func | ExternalKind::FuncExact => {
                match self.functions.get(index as usize) {
                    Some(&ty) => self.func_kind(ty),
                    None => "func".into(),
                }
            }
            ExternalKind::Memory => nth(&self.memories, "memory"),
            ExternalKind::Table => nth(&self.tables, "table"),
            ExternalKind::Global => "global".into(),
            ExternalKind::Tag => "tag".into(),
        }
    }

    /// `func(i32, i32) -> i32`, the way a core module's functions are described.
    fn func_kind(&self, ty: u32) -> String {
        let Some(Some(f)) = self.types.get(ty as usize) else {
            return "func".into();
        };
        let list = |types: &[wasmparser::ValType]| {
            types
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let params = list(f.params());
        match f.results() {
            [] => format!("func({params})"),
            [one] => format!("func({params}) -> {one}"),
            many => format!("func({params}) -> ({})", list(many)),
        }
    }
}

fn memory_kind(pages: u64) -> String {
    format!("memory({pages} pages min)")
}

fn table_kind(elements: u64) -> String {
    format!("table({elements} elements min)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The entries of `wat` as a snippet loader describes them.
    fn entries(wat: &str) -> (Vec<String>, Vec<String>) {
        let wasm = wat::parse_str(wat).unwrap();
        let mut spaces = Spaces::default();
        let (mut imports, mut exports) = (Vec::new(), Vec::new());
        for payload in wasmparser::Parser::new(0).parse_all(&wasm) {
            match payload.unwrap() {
                wasmparser::Payload::TypeSection(s) => spaces.types(s).unwrap(),
                wasmparser::Payload::ImportSection(s) => {
                    for i in s.into_imports() {
                        let i = i.unwrap();
                        imports.push(format!("{}: {}", i.name, spaces.import(i.ty)));
                    }
                }
                wasmparser::Payload::FunctionSection(s) => spaces.functions(s).unwrap(),
                wasmparser::Payload::TableSection(s) => spaces.tables(s).unwrap(),
                wasmparser::Payload::MemorySection(s) => spaces.memories(s).unwrap(),
                wasmparser::Payload::ExportSection(s) => {
                    for e in s {
                        let e = e.unwrap();
                        exports.push(format!("{}: {}", e.name, spaces.export(e.kind, e.index)));
                    }
                }
                _ => {}
            }
        }
        (imports, exports)
    }

    #[test]
    fn functions_memories_and_tables_are_described_with_their_types() {
        let (imports, exports) = entries(
            r#"(module
                (import "codewar" "read" (func (param i32 i32 i32 i32) (result i32)))
                (import "codewar" "set_self" (func (param i32 i32)))
                (import "x" "t" (table 3 funcref))
                (memory (export "memory") 2)
                (table (export "table") 5 funcref)
                (global (export "g") i32 (i32.const 0))
                (func (export "codewar_run") (result i64) (i64.const 0))
                (func (export "pair") (param i64) (result i32 i64) (i32.const 0) (local.get 0))
                (export "set_self_again" (func 1))
                (export "t" (table 0)))"#,
        );
        assert_eq!(
            imports,
            [
                "read: func(i32, i32, i32, i32) -> i32",
                "set_self: func(i32, i32)",
                "t: table(3 elements min)",
            ]
        );
        assert_eq!(
            exports,
            [
                "memory: memory(2 pages min)",
                "table: table(5 elements min)",
                "g: global",
                "codewar_run: func() -> i64",
                "pair: func(i64) -> (i32, i64)",
                "set_self_again: func(i32, i32)",
                "t: table(3 elements min)",
            ]
        );
    }
}
