//! [`coded_enum!`](crate::coded_enum): a rules crate's enum of wire codes, written as one list.

/// Declares an enum whose variants stand for fixed codes (what the ABI and records carry) and
/// names (what records and messages say), with `ALL`, `code`, `from_code` and `name` made from
/// that one list: without it each rules crate writes every variant again in an `ALL` array, a
/// `from_code` match and a `name` match, by hand, where a variant added to one and not to another
/// goes unnoticed. The docs of the enum, of each variant and of each of the four items are the
/// caller's (`$(#[doc])*` before each; the four items' signatures are fixed).
///
/// ```
/// rules_bounds::coded_enum! {
///     /// A light.
///     #[derive(Clone, Copy, Debug, PartialEq, Eq)]
///     pub enum Light: u8 {
///         /// Stop.
///         Red = 1 => "red",
///         Green = 2 => "green",
///     }
///     /// Every light, in code order.
///     const ALL;
///     fn code;
///     fn from_code;
///     /// The light's name.
///     fn name;
/// }
/// assert_eq!(Light::ALL, [Light::Red, Light::Green]);
/// assert_eq!((Light::Green.code(), Light::Green.name()), (2, "green"));
/// assert_eq!((Light::from_code(1), Light::from_code(3)), (Some(Light::Red), None));
/// ```
#[macro_export]
macro_rules! coded_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $Name:ident: $Code:ty {
            $( $(#[$vmeta:meta])* $Variant:ident = $code:literal => $name:literal, )+
        }
        $(#[$all_doc:meta])* const ALL;
        $(#[$code_doc:meta])* fn code;
        $(#[$from_doc:meta])* fn from_code;
        $(#[$name_doc:meta])* fn name;
    ) => {
        $(#[$meta])*
        $vis enum $Name {
            $( $(#[$vmeta])* $Variant = $code, )+
        }

        impl $Name {
            $(#[$all_doc])*
            pub const ALL: [$Name; [$(stringify!($Variant)),+].len()] = [$($Name::$Variant),+];

            $(#[$code_doc])*
            pub const fn code(self) -> $Code {
                self as $Code
            }

            $(#[$from_doc])*
            pub const fn from_code(code: $Code) -> Option<$Name> {
                match code {
                    $( $code => Some($Name::$Variant), )+
                    _ => None,
                }
            }

            $(#[$name_doc])*
            pub const fn name(self) -> &'static str {
                match self {
                    $( $Name::$Variant => $name, )+
                }
            }
        }
    };
}
