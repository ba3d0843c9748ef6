// PassModel
