package lang

// The syntax tree the parser builds and the compiler walks.

// Expr is an expression node.
type Expr interface{ pos() Pos }

type (
	// IntLit and FloatLit are literals.
	IntLit struct {
		P Pos
		V int64
	}
	FloatLit struct {
		P Pos
		V float64
	}
	StrLit struct {
		P Pos
		V string
	}
	// Name is a variable, constant, param or array name.
	Name struct {
		P  Pos
		ID string
	}
	// Index is A[i][j]...
	Index struct {
		P     Pos
		Array *Name
		Idx   []Expr
	}
	// Call is f(args) (a function or a built-in).
	Call struct {
		P    Pos
		Fn   string
		Args []Expr
	}
	Unary struct {
		P  Pos
		Op string
		X  Expr
	}
	Binary struct {
		P    Pos
		Op   string
		L, R Expr
	}
	Cond struct {
		P       Pos
		C, T, F Expr
	}
	// TypeArg is a type name used as an argument (sizeof(int)).
	TypeArg struct {
		P    Pos
		Type string
	}
)

func (e *IntLit) pos() Pos   { return e.P }
func (e *FloatLit) pos() Pos { return e.P }
func (e *StrLit) pos() Pos   { return e.P }
func (e *Name) pos() Pos     { return e.P }
func (e *Index) pos() Pos    { return e.P }
func (e *Call) pos() Pos     { return e.P }
func (e *Unary) pos() Pos    { return e.P }
func (e *Binary) pos() Pos   { return e.P }
func (e *Cond) pos() Pos     { return e.P }
func (e *TypeArg) pos() Pos  { return e.P }

// Stmt is a statement node.
type Stmt interface{ pos() Pos }

type (
	// VarDecl declares scalars or arrays of one element type.
	VarDecl struct {
		P        Pos
		Type     string
		Register bool
		Items    []DeclItem
	}
	// Assign is L op= R; Op is "=" or "+=" and so on; ++ and -- are
	// "+=" and "-=" with R = 1.
	Assign struct {
		P  Pos
		L  Expr // *Name or *Index
		Op string
		R  Expr
	}
	ExprStmt struct {
		P Pos
		X Expr
	}
	Block struct {
		P     Pos
		Stmts []Stmt
	}
	If struct {
		P    Pos
		C    Expr
		Then Stmt
		Else Stmt // nil when absent
	}
	// Loop is for, while and do-while: Init; while C { Body; Post }.
	Loop struct {
		P    Pos
		Init []Stmt
		C    Expr // nil: forever
		Post []Stmt
		Body Stmt
		Do   bool // the condition is tested after the body
	}
	Break    struct{ P Pos }
	Continue struct{ P Pos }
	Return   struct {
		P Pos
		X Expr // nil in a void function
	}
	Swap struct {
		P    Pos
		A, B Expr
	}
)

// DeclItem is one name of a declaration.
type DeclItem struct {
	P      Pos
	Name   string
	Dims   []Expr // nil for a scalar
	Offset Expr   // offset K; nil for none
	Init   Expr   // initial value or initialiser call; nil for none
}

func (s *VarDecl) pos() Pos  { return s.P }
func (s *Assign) pos() Pos   { return s.P }
func (s *ExprStmt) pos() Pos { return s.P }
func (s *Block) pos() Pos    { return s.P }
func (s *If) pos() Pos       { return s.P }
func (s *Loop) pos() Pos     { return s.P }
func (s *Break) pos() Pos    { return s.P }
func (s *Continue) pos() Pos { return s.P }
func (s *Return) pos() Pos   { return s.P }
func (s *Swap) pos() Pos     { return s.P }

// Param is param NAME = value.
type Param struct {
	P     Pos
	Name  string
	Value string // as written, in memwall's field syntax
}

// ConstDecl is const NAME = expression.
type ConstDecl struct {
	P    Pos
	Name string
	X    Expr
}

func (s *ConstDecl) pos() Pos { return s.P }

// Func is a function definition.
type Func struct {
	P      Pos
	Name   string
	Result string // "void", or a type name
	Params []FuncParam
	Body   *Block
}

// FuncParam is a scalar or an array (passed by reference) parameter.
type FuncParam struct {
	P     Pos
	Name  string
	Type  string
	Array bool
}

// File is a parsed program: params, functions, and the top-level
// statements (declarations included) in order.
type File struct {
	Params []Param
	Funcs  []*Func
	Top    []Stmt
}
